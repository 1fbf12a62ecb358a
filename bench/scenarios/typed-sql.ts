import { readdirSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { definedStatements, type Statement } from "@esign/db";
import { createWorld } from "../support/world";
import { median, percentiles, round } from "../support/stats";
import { check, type BenchContext, type Check, type ScenarioResult } from "./types";

/*
 * 7. Typed SQL (issue 15): what the typed statements cost on the hot paths. Before them, a hot path
 * sent a fixed SQL string with its values (pg `query(text, values)`); now it builds the statement
 * with Kysely and compiles it on every call (`run(client, statement, args)`), then sends the same
 * kind of text. The difference is the build and compile, on the client, per statement.
 *
 * Baseline and subject run in this process, interleaved, against a migrated database of the run:
 * - baseline: the statement's text compiled once, sent as a fixed string (what the code before did);
 * - typed: compile(args) on every call, then send (what the code does now).
 * Each call runs in its own transaction that is rolled back (BEGIN and ROLLBACK outside the timed
 * part), with `session_replication_role = replica` so that a statement's sample arguments need no
 * parent rows (foreign keys are triggers) and nothing stays behind. A hot path is its statements
 * (those of its `*.sql.ts` files) each run once: its figure is the sum of their medians, typed over
 * baseline. Statements PostgreSQL refuses with their sample arguments are compiled but not timed.
 *
 * This is the microscope, not the verdict: a statement alone on an idle loopback connection takes
 * 0.1-0.4 ms, so its build and compile (20-100 us) show large here. What a hot path pays is judged
 * where it runs: the create -> completed and dispatch scenarios read each service's
 * esign_typed_sql_compile_seconds against its CPU time (at most 5%, issue 15).
 */

const ROOT = path.resolve(__dirname, "../..");

/** The hot paths of bench/README.md, by the statement files they run. */
const HOT_PATHS: { id: string; label: string; files: string[] }[] = [
  { id: "create-api", label: "create: the creation job (gateway)", files: ["services/api-gateway/src/casefiles/creation-job.sql.ts"] },
  {
    id: "create-worker",
    label: "create: the case file (casefile-worker)",
    files: ["services/casefile-worker/src/jobs/create-casefile.sql.ts", "services/casefile-worker/src/domain/persist-casefile.sql.ts"],
  },
  { id: "outbox", label: "outbox relay", files: ["packages/outbox-relay/src/drain-outbox.sql.ts"] },
  {
    id: "signing-request",
    label: "signing request (notifier)",
    files: ["services/notifier/src/domain/notification-records.sql.ts", "services/notifier/src/domain/signer-message-store.sql.ts"],
  },
  {
    id: "dispatch",
    label: "webhook delivery (webhook-dispatcher)",
    files: ["services/webhook-dispatcher/src/domain/attempt-rows.sql.ts", "services/webhook-dispatcher/src/domain/record-attempt.sql.ts"],
  },
  { id: "sign", label: "signing (gateway)", files: ["services/api-gateway/src/signing/signer-actions.sql.ts"] },
];

function sqlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ["node_modules", "generated", "test", "dist"].includes(entry.name) ? [] : sqlFiles(full);
    return entry.name.endsWith(".sql.ts") ? [full] : [];
  });
}

/** Loads every statement file, answering which statements each file defined. */
function loadStatements(): Map<string, Statement<unknown, unknown>[]> {
  const byFile = new Map<string, Statement<unknown, unknown>[]>();
  for (const file of ["packages", "services"].flatMap((top) => sqlFiles(path.join(ROOT, top)))) {
    const before = new Set(definedStatements());
    require(file);
    byFile.set(
      path.relative(ROOT, file),
      definedStatements().filter((s) => !before.has(s)),
    );
  }
  return byFile;
}

interface Timing {
  name: string;
  /** Compile alone, microseconds per call (a tight loop). */
  compileUs: number;
  executable: boolean;
  refusal?: string;
  baselineMs?: number;
  typedMs?: number;
}

async function timed(client: Client, send: () => Promise<unknown>): Promise<number> {
  await client.query("BEGIN");
  const t0 = performance.now();
  await send();
  const ms = performance.now() - t0;
  await client.query("ROLLBACK");
  return ms;
}

async function measure(client: Client, statement: Statement<unknown, unknown>, rounds: number, calls: number): Promise<Timing> {
  const loops = 2000;
  const c0 = performance.now();
  for (let i = 0; i < loops; i++) statement.compile(statement.sample);
  const compileUs = ((performance.now() - c0) * 1000) / loops;
  const fixed = statement.compile(statement.sample);
  const baseline = () => client.query(fixed.sql, fixed.parameters as unknown[]);
  const typed = () => {
    const q = statement.compile(statement.sample);
    return client.query(q.sql, q.parameters as unknown[]);
  };
  try {
    await timed(client, baseline);
  } catch (err) {
    await client.query("ROLLBACK");
    return { name: statement.name, compileUs, executable: false, refusal: (err as Error).message };
  }
  const b: number[] = [];
  const t: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // Alternate which side goes first, so neither always runs on a warmer connection.
    const order = r % 2 === 0 ? ([b, baseline, t, typed] as const) : ([t, typed, b, baseline] as const);
    for (let i = 0; i < calls; i++) order[0].push(await timed(client, order[1]));
    for (let i = 0; i < calls; i++) order[2].push(await timed(client, order[3]));
  }
  return { name: statement.name, compileUs, executable: true, baselineMs: median(b), typedMs: median(t) };
}

export async function typedSqlScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const world = await createWorld(ctx.run, "typed_sql");
  const client = new Client({ connectionString: world.databaseUrl });
  await client.connect();
  const rounds = ctx.quick ? 2 : 8;
  const calls = ctx.quick ? 10 : 40;
  const checks: Check[] = [];
  const data: Record<string, unknown> = {};
  const chart = [];
  const notes: string[] = [];
  try {
    // Foreign keys are triggers: a statement's sample arguments need no parent rows (superuser only).
    await client.query("SET session_replication_role = replica");
    const byFile = loadStatements();
    // Warm-up: JIT and PostgreSQL's caches, out of the figures.
    for (const statements of byFile.values()) for (const s of statements) await measure(client, s, 1, 3).catch(() => undefined);
    for (const hot of HOT_PATHS) {
      const timings: Timing[] = [];
      for (const file of hot.files) {
        const statements = byFile.get(file);
        if (!statements) throw new Error(`${file}: no such statement file (bench/scenarios/typed-sql.ts lists the hot paths)`);
        for (const s of statements) timings.push(await measure(client, s, rounds, calls));
      }
      const timedOnes = timings.filter((x) => x.executable);
      const baselineMs = timedOnes.reduce((a, x) => a + (x.baselineMs ?? 0), 0);
      const typedMs = timedOnes.reduce((a, x) => a + (x.typedMs ?? 0), 0);
      const ratio = baselineMs > 0 ? typedMs / baselineMs : Number.NaN;
      const compileUs = timings.reduce((a, x) => a + x.compileUs, 0);
      ctx.log(
        `typed SQL, ${hot.label}: ${timedOnes.length} of ${timings.length} statements timed, typed ${round(typedMs, 3)} ms vs fixed text ${round(baselineMs, 3)} ms = ${round(ratio, 3)} x; compiling all ${timings.length}: ${round(compileUs, 1)} us`,
      );
      for (const x of timings.filter((y) => !y.executable))
        notes.push(`${hot.label}: ${x.name} not timed (its sample arguments are refused: ${x.refusal}); compiling it costs ${round(x.compileUs, 1)} us`);
      data[hot.id] = { statements: timings.map((x) => ({ ...x, compileUs: round(x.compileUs, 2) })), baselineMs, typedMs, ratio, compileUs };
      checks.push(
        check(
          `typed-sql-${hot.id}`,
          `Typed SQL, ${hot.label}: its statements typed / as fixed text`,
          ratio,
          "x",
          "reported: the statements alone, round trips on an idle loopback; the 5% target is judged in situ (completed.typed-sql, dispatch.typed-sql)",
          true,
          `compile ${round(compileUs, 1)} us for ${timings.length} statements; round trips ${round(baselineMs, 3)} ms`,
        ),
      );
      chart.push({ group: "typed-sql", label: `${hot.id} (sum of medians)`, latency: percentiles([typedMs]) });
    }
  } finally {
    await client.end();
  }
  return {
    id: "typed-sql",
    title: "Typed SQL: the hot paths' statements, built and compiled per call vs sent as fixed text",
    method: [
      "In-process, one pg connection to a migrated database of the run, session_replication_role = replica (no parent rows needed)",
      `Per statement, with its sample arguments: ${rounds} rounds of ${calls} calls each way, interleaved; each call in its own transaction rolled back (BEGIN/ROLLBACK not timed); medians`,
      "A hot path: its *.sql.ts files' statements, each once; typed = sum of typed medians, baseline = sum of fixed-text medians",
    ],
    checks,
    chart,
    data,
    notes,
    wallMs: performance.now() - started,
  };
}
