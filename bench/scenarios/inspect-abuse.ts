import { readFileSync } from "node:fs";
import type http from "node:http";
import { makeInflationBombPdf } from "../../test/support/hostile-pdf";
import { runOpenModel, summarize, type OpenModelResult, type Outcome } from "../load/open-model";
import { accessToken } from "../support/auth";
import { benchAgent, get, post } from "../support/http";
import { MultipartTemplate } from "../support/multipart";
import { createTemplate } from "../support/payload";
import { NONCE_LENGTH, type NoncePdf } from "../support/pdf";
import { childrenCpuMs, memory } from "../support/proc";
import { startBenchService, type BenchProcess } from "../support/services";
import { epochMs, percentiles, round, type Percentiles } from "../support/stats";
import { createWorld } from "../support/world";
import { check, type BenchContext, type ScenarioResult } from "./types";

/*
 * 10. Upload inspection under abuse (issue 26, item 2). The gateway in production mode with the
 * default inspector settings (2 processes at nice 0, 1 file per customer at a time (borrowing idle ones), 64 MiB
 * inflated per document, 384 MiB heap, 20 s) and the abuse limits at their real size. Customer B
 * sends ordinary creates (two 100 KB PDFs, fresh bytes each) at a fixed rate, first alone
 * ("quiet"), then while customer A sends creates of three ~1 MB PDFs whose object streams inflate to
 * 1 GiB each (the issue's attack; fresh bytes each, so no verdict comes from the cache): once with
 * the per-customer budget of costly refusals off (the worst case: every bomb inspected), once on a
 * second gateway with it at its default. Throughout, /healthz is asked every 25 ms, one request at a
 * time. Measured: B's latency and failures, A's answers, /healthz latency, the inspectors' CPU and
 * the largest resident size of the gateway's children.
 */

const B_RATE = 4;
const A_RATE = 0.5;
/** Hostile /verify uploads per second (16 MB each), from one address whose per-address limit is lifted: many addresses' worth. */
const VERIFY_RATE = 2;
const BOMB_INFLATED = 2 ** 30;
const HEALTHZ_EVERY_MS = 25;
const HEALTHZ_P99_MS = 50;

/** A bomb whose header comment is a nonce: each request uploads other bytes (another content address). */
async function bombPdf(): Promise<NoncePdf> {
  const label = "0".repeat(NONCE_LENGTH);
  const bytes = await makeInflationBombPdf(BOMB_INFLATED, label);
  return { bytes, nonceOffset: bytes.indexOf(label), nonceLength: NONCE_LENGTH };
}

/**
 * The issue's /verify attack (issue 26, item 1): a 16 MB file whose 40 /ByteRange entries all point at
 * one signature gap of almost 2 MB of hex (the largest gap the search takes), padded to its size. Before
 * the fix it blocked the gateway's event loop for 1.9 s and copied the gap once per entry.
 */
function hostileVerifyPdf(): Buffer {
  const head = "%PDF-1.7\n1 0 obj\n<< /Type /Sig /Contents <";
  const gapStart = head.length - 1;
  const gap = "0a".repeat(1024 * 1024 - 8);
  const gapEnd = gapStart + gap.length + 2;
  const total = 16 * 1024 * 1024;
  const ranges = Array.from({ length: 40 }, () => `/ByteRange [0 ${gapStart} ${gapEnd} ${total - gapEnd}]`).join("\n");
  const body = `${head}${gap}>\n${ranges}\n>>\nendobj\n`;
  const tail = "\n%%EOF\n";
  return Buffer.concat([Buffer.from(body, "latin1"), Buffer.alloc(total - body.length - tail.length, 0x20), Buffer.from(tail, "latin1")]);
}

function attackTemplate(bomb: NoncePdf): MultipartTemplate {
  const names = ["one.pdf", "two.pdf", "three.pdf"];
  const data = {
    caseFile: {
      title: "Three documents",
      signers: [{ name: "Mallory", email: "mallory@example.com", enableInsecureSigning: true, insecureSigningMethods: ["text"] }],
      documents: names.map((name, i) => ({ title: name, name, ...(i > 0 ? { signable: false } : {}) })),
    },
  };
  return new MultipartTemplate(
    JSON.stringify(data),
    names.map((name) => ({ name, pdf: bomb })),
  );
}

/** The gateway's children's resident size, summed (the PDF inspectors). */
function childrenRss(pid: number): number {
  let total = 0;
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean);
    for (const c of children) {
      try {
        total += memory(Number(c)).rss;
      } catch {
        // exited meanwhile
      }
    }
  } catch {
    // the gateway is gone
  }
  return total;
}

/** Asks /healthz one request at a time every `everyMs` until stopped; samples the children's RSS too. */
function probe(gateway: BenchProcess, everyMs: number) {
  const agent = benchAgent(1);
  const url = new URL(`${gateway.url}/healthz`);
  const latencies: number[] = [];
  let failures = 0;
  let peakChildrenRss = 0;
  let peakGatewayRss = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await get(agent, url, {}, 10_000);
        if (res.status !== 200) failures += 1;
      } catch {
        failures += 1;
      }
      const ms = performance.now() - t0;
      latencies.push(ms);
      peakChildrenRss = Math.max(peakChildrenRss, childrenRss(gateway.pid));
      try {
        peakGatewayRss = Math.max(peakGatewayRss, memory(gateway.pid).rss);
      } catch {
        // the gateway is gone
      }
      await new Promise((r) => setTimeout(r, Math.max(0, everyMs - ms)));
    }
  })();
  return {
    async stop(): Promise<{ latency: Percentiles; failures: number; peakChildrenRssMb: number; peakGatewayRssMb: number }> {
      running = false;
      await loop;
      agent.destroy();
      return {
        latency: percentiles(latencies),
        failures,
        peakChildrenRssMb: round(peakChildrenRss / 2 ** 20, 1),
        peakGatewayRssMb: round(peakGatewayRss / 2 ** 20, 1),
      };
    },
  };
}

/**
 * Sends one POST per call; counts the answers by status (and a 400's error codes) and records every
 * answer's latency, refusals too. `ok` says which statuses count as handled.
 */
function poster(
  agent: http.Agent,
  url: URL,
  headers: Record<string, string | number>,
  body: () => readonly Buffer[] | Buffer,
  answers: Record<string, number>,
  latencies: number[],
  ok: (status: number) => boolean,
) {
  return async (_i: number, intendedAt: number): Promise<Outcome> => {
    const res = await post(agent, url, headers, body(), 120_000);
    latencies.push(epochMs() - intendedAt);
    const codes = res.status === 400 ? [...new Set((JSON.parse(res.body) as { errors?: { code: string }[] }).errors?.map((e) => e.code) ?? [])].join("+") : "";
    const key = `${res.status}${codes ? ` ${codes}` : ""}`;
    answers[key] = (answers[key] ?? 0) + 1;
    return ok(res.status) ? { ok: true } : { ok: false, detail: key };
  };
}

/** Creates from a multipart template: only a 200 is a success. */
function sender(agent: http.Agent, url: URL, token: string, tpl: MultipartTemplate, answers: Record<string, number>, latencies: number[] = []) {
  const headers = { "content-type": tpl.contentType, "content-length": tpl.contentLength, "x-auth-token": token };
  return poster(
    agent,
    url,
    headers,
    () => tpl.chunks(),
    answers,
    latencies,
    (status) => status === 200,
  );
}

/** The hostile file to the public /verify (no login): any answer but a 5xx is the gateway coping. */
function verifySender(agent: http.Agent, url: URL, file: Buffer, answers: Record<string, number>, latencies: number[]) {
  const headers = { "content-type": "application/pdf", "content-length": file.length };
  return poster(
    agent,
    url,
    headers,
    () => file,
    answers,
    latencies,
    (status) => status < 500,
  );
}

interface Phase {
  b: OpenModelResult;
  bAnswers: Record<string, number>;
  healthz: Awaited<ReturnType<ReturnType<typeof probe>["stop"]>>;
  a?: { run: OpenModelResult; answers: Record<string, number>; latency: Percentiles };
  inspectorCpuPct: number;
}

/** One gateway, two customers: B's ordinary creates, and (when `attack` is given) A's bombs beside them. */
async function gatewayWithCustomers(world: Awaited<ReturnType<typeof createWorld>>, env: Record<string, string>) {
  const gateway = await startBenchService("api-gateway", { env: world.env(env) });
  const url = new URL(`${gateway.url}/send/api/v1/casefiles/20251022/create`);
  const tokenA = await accessToken(gateway.url, await world.customer());
  const tokenB = await accessToken(gateway.url, await world.customer());
  const agent = benchAgent();
  const ordinary = createTemplate();
  // Warm-up: the inspector processes start, the code paths compile.
  const warm = sender(agent, url, tokenB, ordinary, {});
  for (let i = 0; i < 10; i++) await warm(i, epochMs());

  const verifyUrl = new URL(`${gateway.url}/verify`);
  const phase = async (durationMs: number, attack?: MultipartTemplate, verifyAttack?: Buffer): Promise<Phase> => {
    const bAnswers: Record<string, number> = {};
    const aAnswers: Record<string, number> = {};
    const aLatencies: number[] = [];
    const i0 = childrenCpuMs(gateway.pid);
    const t0 = performance.now();
    const health = probe(gateway, HEALTHZ_EVERY_MS);
    const [b, a] = await Promise.all([
      runOpenModel({ rate: B_RATE, durationMs, drainTimeoutMs: 60_000, fire: sender(agent, url, tokenB, ordinary, bAnswers) }),
      attack
        ? runOpenModel({ rate: A_RATE, durationMs, drainTimeoutMs: 60_000, fire: sender(agent, url, tokenA, attack, aAnswers, aLatencies) })
        : verifyAttack
          ? runOpenModel({ rate: VERIFY_RATE, durationMs, drainTimeoutMs: 60_000, fire: verifySender(agent, verifyUrl, verifyAttack, aAnswers, aLatencies) })
          : undefined,
    ]);
    const healthz = await health.stop();
    const inspectorCpuPct = round(((childrenCpuMs(gateway.pid) - i0) / (performance.now() - t0)) * 100, 1);
    return { b, bAnswers, healthz, inspectorCpuPct, a: a && { run: a, answers: aAnswers, latency: percentiles(aLatencies) } };
  };
  const stop = async () => {
    agent.destroy();
    await gateway.stop();
  };
  return { phase, stop };
}

const failures = (r: OpenModelResult) => r.failed + r.dropped + r.timedOut;
const fig = (r: OpenModelResult) => `p50 ${round(r.latency.p50, 1)} ms, p99 ${round(r.latency.p99, 1)} ms, ${r.ok}/${r.intended} ok`;

export async function inspectAbuseScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const durationMs = ctx.quick ? 8_000 : 20_000;
  const world = await createWorld(ctx.run, "inspect");
  ctx.log(`inspect: building a ${BOMB_INFLATED / 2 ** 20} MiB bomb`);
  const bomb = await bombPdf();
  const attack = attackTemplate(bomb);

  // The worst case first: the per-customer budget of costly refusals off, so A's bombs are inspected
  // for the whole phase (as from an attacker with many accounts). Abuse limits at their real size.
  ctx.log(
    `inspect: quiet ${durationMs / 1000} s (B ${B_RATE}/s), attack ${durationMs / 1000} s (B + A ${A_RATE}/s, 3 x ${bomb.bytes.length} B bombs), budget off, then on`,
  );
  const open = await gatewayWithCustomers(world, { RATE_LIMIT_SCALE: "1", COSTLY_PDFS_PER_CUSTOMER_PER_MINUTE: "0" });
  const quiet = await open.phase(durationMs);
  await new Promise((r) => setTimeout(r, 1000));
  const worst = await open.phase(durationMs, attack);
  await open.stop();
  // The production settings: COSTLY_PDFS_PER_CUSTOMER_PER_MINUTE 10, then 429 before A's files are read.
  const budgeted = await gatewayWithCustomers(world, { RATE_LIMIT_SCALE: "1" });
  const limited = await budgeted.phase(durationMs, attack);
  await budgeted.stop();
  // /verify's attack (item 1): the per-address limit lifted, as for an attacker with many addresses.
  const verifyFile = hostileVerifyPdf();
  const verifying = await gatewayWithCustomers(world, { RATE_LIMIT_SCALE: "1", VERIFY_REQUESTS_PER_ADDRESS_PER_MINUTE: "100000" });
  const verified = await verifying.phase(durationMs, undefined, verifyFile);
  await verifying.stop();
  await world.db.$disconnect();

  const wa = worst.a!;
  const la = limited.a!;
  const refusedAsCostly = wa.answers["400 pdf_too_costly"] ?? 0;
  const p99Ratio = worst.b.latency.p99 / quiet.b.latency.p99;
  const worstHealthP99 = Math.max(worst.healthz.latency.p99, limited.healthz.latency.p99);
  const va = verified.a!;
  return {
    id: "inspect",
    title: "Upload inspection under abuse: inflation bombs from one customer beside another's ordinary creates",
    method: [
      `Gateway in production mode, default inspector settings (PDF_INSPECTORS 2, PDF_INSPECT_PER_CUSTOMER 1, PDF_INSPECT_MAX_INFLATED_BYTES 64 MiB, PDF_INSPECT_MAX_HEAP_MB 384, PDF_INSPECT_TIMEOUT_MS 20000, PDF_INSPECT_NICE 0, PDF_INSPECT_BORROW_MS 500), abuse limits at their real size (RATE_LIMIT_SCALE 1).`,
      `Customer B: ordinary creates (two 100 KB PDFs, fresh bytes each) at ${B_RATE}/s. Customer A: ${A_RATE} creates/s of three ${round(bomb.bytes.length / 2 ** 20, 2)} MB PDFs whose object streams inflate to ${BOMB_INFLATED / 2 ** 30} GiB each (fresh bytes each: no cached verdict).`,
      `Phases of ${durationMs / 1000} s: quiet (B alone); attack with COSTLY_PDFS_PER_CUSTOMER_PER_MINUTE off (every bomb inspected: the worst case); attack on a second gateway with it at its default 10 (then 429 before A's files are read).`,
      `Then /verify (issue 26, item 1) on a third gateway: ${VERIFY_RATE}/s hostile files of 16 MB whose 40 /ByteRange entries all point at one ~2 MB hex gap, from one address with VERIFY_REQUESTS_PER_ADDRESS_PER_MINUTE lifted (an attacker with many addresses), beside B's creates.`,
      `/healthz asked every ${HEALTHZ_EVERY_MS} ms, one at a time, in every phase; create latencies are from the intended send time (open model).`,
    ],
    checks: [
      check(
        "inspect-healthz",
        "/healthz p99 during the attack (worse of the two attack phases)",
        worstHealthP99,
        "ms",
        `< ${HEALTHZ_P99_MS} ms`,
        worstHealthP99 < HEALTHZ_P99_MS && worst.healthz.failures + limited.healthz.failures === 0,
        `quiet ${round(quiet.healthz.latency.p99, 1)} ms; budget off ${round(worst.healthz.latency.p99, 1)} ms, on ${round(limited.healthz.latency.p99, 1)} ms`,
      ),
      check(
        "verify-healthz",
        "/healthz p99 during the /verify attack (16 MB, 40 ranges)",
        verified.healthz.latency.p99,
        "ms",
        `< ${HEALTHZ_P99_MS} ms`,
        verified.healthz.latency.p99 < HEALTHZ_P99_MS && verified.healthz.failures === 0 && failures(verified.b) === 0 && failures(va.run) === 0,
        `B's creates meanwhile: ${fig(verified.b)}; /verify answers ${JSON.stringify(va.answers)}, p50 ${round(va.latency.p50, 0)} ms, p99 ${round(va.latency.p99, 0)} ms`,
      ),
      check(
        "inspect-b-failures",
        "B's creates failed during the attack",
        failures(worst.b) + failures(limited.b),
        "requests",
        "0",
        failures(worst.b) + failures(limited.b) === 0,
        `budget off: ${fig(worst.b)}; on: ${fig(limited.b)}; quiet: ${fig(quiet.b)}`,
      ),
      check(
        "inspect-b-p99",
        "B's create p99, worst-case attack vs quiet",
        p99Ratio,
        "x",
        "context",
        true,
        `${round(worst.b.latency.p99, 1)} vs ${round(quiet.b.latency.p99, 1)} ms`,
      ),
      check(
        "inspect-a-refused",
        "A's creates refused as pdf_too_costly (budget off)",
        refusedAsCostly,
        "creates",
        `all ${wa.run.intended}`,
        refusedAsCostly === wa.run.intended,
        `A's answers p50 ${round(wa.latency.p50, 0)} ms, p99 ${round(wa.latency.p99, 0)} ms; budget on: ${JSON.stringify(la.answers)}`,
      ),
    ],
    chart: [
      { group: "B create", label: "quiet", latency: quiet.b.latency },
      { group: "B create", label: "attack, budget off", latency: worst.b.latency },
      { group: "B create", label: "attack, budget on", latency: limited.b.latency },
      { group: "/healthz", label: "quiet", latency: quiet.healthz.latency },
      { group: "/healthz", label: "attack, budget off", latency: worst.healthz.latency },
      { group: "/healthz", label: "attack, budget on", latency: limited.healthz.latency },
      { group: "A create (refused)", label: "budget off", latency: wa.latency },
      { group: "B create", label: "/verify attack", latency: verified.b.latency },
      { group: "/healthz", label: "/verify attack", latency: verified.healthz.latency },
      { group: "hostile /verify", label: "16 MB, 40 ranges", latency: va.latency },
    ],
    data: {
      quiet: { ...quiet, b: summarize(quiet.b) },
      attackBudgetOff: { ...worst, b: summarize(worst.b), a: { ...wa, run: summarize(wa.run) } },
      attackBudgetOn: { ...limited, b: summarize(limited.b), a: { ...la, run: summarize(la.run) } },
      verifyAttack: { ...verified, b: summarize(verified.b), a: { ...va, run: summarize(va.run) } },
      bombBytes: bomb.bytes.length,
      verifyFileBytes: verifyFile.length,
    },
    notes: [
      `inspector processes' CPU (% of one core): quiet ${quiet.inspectorCpuPct}, attack budget off ${worst.inspectorCpuPct}, budget on ${limited.inspectorCpuPct}, /verify attack ${verified.inspectorCpuPct}`,
      `their largest summed RSS: quiet ${quiet.healthz.peakChildrenRssMb} MB, attack budget off ${worst.healthz.peakChildrenRssMb} MB, on ${limited.healthz.peakChildrenRssMb} MB, /verify attack ${verified.healthz.peakChildrenRssMb} MB`,
      `the gateway's own largest RSS: quiet ${quiet.healthz.peakGatewayRssMb} MB, attack budget off ${worst.healthz.peakGatewayRssMb} MB, /verify attack ${verified.healthz.peakGatewayRssMb} MB`,
      `B's answers: quiet ${JSON.stringify(quiet.bAnswers)}, budget off ${JSON.stringify(worst.bAnswers)}, on ${JSON.stringify(limited.bAnswers)}`,
      `A's answers: budget off ${JSON.stringify(wa.answers)}, on ${JSON.stringify(la.answers)}`,
    ],
    wallMs: performance.now() - started,
  };
}
