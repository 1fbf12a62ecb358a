import { loadConfig } from "@esign/config";
import { EVENT_TYPES, QUEUE } from "@esign/schema";
import { Producer, createRedis, type RedisTarget } from "@esign/queue";
import { getToken } from "./api";
import { setRunEnvironment } from "./run-environment";
import { makePdf } from "./pdf";
import { startPostgresServer, type PostgresServer } from "./postgres-server";
import { freePort } from "./ports";
import { startReceiver, type Receiver } from "./receiver";
import { FLAKY_TYPES, Trickle, deliveryLog, settle, sleep, spread, type TrickleCase } from "./recovery-system";
import { startRedisCluster, type RedisCluster } from "./redis-cluster";
import { startRedisServer, type RedisServer } from "./redis-server";
import { startPgBouncer } from "./pgbouncer";
import { startService, type ServiceName, type ServiceProcess } from "./services";
import { createWorld, type World } from "./webhook-world";

/*
 * The replica suite and the chaos soak (`pnpm soak`, test/topology/replicas.test.ts, test/topology/soak.test.ts):
 * every service as several replicas on a redis-server (AOF everysec) and a PostgreSQL cluster of the
 * run's own, a mixed load (creates, signers signing in rounds, sendAt, expiry and reminder timers,
 * a healthy and a failing-first webhook subscription) and, for the soak, a chaos loop that SIGKILLs a
 * random replica every few seconds and restarts it, and restarts Redis and PostgreSQL. At the end it
 * waits for quiescence and counts what was accepted, created, completed, delivered, doubled and lost.
 */

const SERVICES: ServiceName[] = ["api-gateway", "casefile-worker", "notifier", "webhook-dispatcher"];
/** One reminderInterval "day" in the soak. */
const REMINDER_DAY_MS = 3000;

export interface SoakOptions {
  /** How long the load runs (the drain and the checks come after). */
  seconds: number;
  /** Replicas of every service. */
  replicas: number;
  /** Kill a random replica this often (0: no kills). */
  killEveryMs: number;
  /** Redis and PostgreSQL restarts, spread over the run. */
  redisRestarts: number;
  postgresRestarts: number;
  /** How long each restart keeps the server away. */
  outageMs: number;
  createEveryMs: number;
  /** Services reach PostgreSQL through a PgBouncer in transaction mode (their LISTEN session directly). */
  pgbouncer?: boolean;
  /** Redis is a three-master Redis Cluster (no Redis restarts then) instead of one redis-server. */
  redisCluster?: boolean;
  log: (line: string) => void;
}

export const SOAK_DEFAULTS: Omit<SoakOptions, "seconds" | "log"> = {
  replicas: 2,
  killEveryMs: 4000,
  redisRestarts: 2,
  postgresRestarts: 1,
  outageMs: 2000,
  createEveryMs: 400,
};

export interface SoakReport {
  accepted: number;
  /** Creates not accepted (a killed gateway, a 503 while PostgreSQL was away): the client retries. */
  refused: number;
  created: number;
  completed: number;
  sealed: number;
  expired: number;
  events: number;
  deliveries: number;
  /** Webhooks POSTed again (at least once): expected after a dispatcher is killed mid-request. */
  duplicates: number;
  /** Work done twice to effect (a case file, a lifecycle event, a reminder): must be empty. */
  doubled: string[];
  /** What never happened: must be empty. */
  lost: string[];
  /** BullMQ jobs still waiting or active after quiescence. */
  stuck: number;
  /** Longest time from a create's answer (or the end of the outage it was accepted in) to its case file. */
  longestRecoveryMs: number;
  /** Signers reminded at least once (reminderInterval of one scaled day). */
  reminded: number;
  kills: number;
  restarts: string[];
  /** Transactions the PgBouncer carried for the services' database (with `pgbouncer`). */
  pgbouncerTransactions?: number;
}

/** One replica: where it listens (a restarted replica comes back on the same port) and what runs there. */
interface Replica {
  name: ServiceName;
  port: number;
  env: Record<string, string>;
  proc?: ServiceProcess;
}

/** The n-th create of the soak: a mix of one and two signing rounds, sendAt, expiry and reminders. */
export function soakCase(n: number, pdfName: string): TrickleCase {
  const inSeconds = (s: number) => Math.ceil(Date.now() / 1000) + s;
  const signer = (i: number, extra: Record<string, unknown> = {}) => ({
    name: `Signer ${n}.${i}`,
    email: `signer${n}.${i}@example.com`,
    enableInsecureSigning: true,
    insecureSigningMethods: ["text"],
    ...extra,
  });
  const caseFile: Record<string, unknown> = { title: `Soak ${n}`, documents: [{ title: "Contract", name: pdfName }] };
  // Two rounds: the second signer's request goes out once the first has signed.
  caseFile.signers = n % 4 === 1 ? [signer(1), signer(2, { signOrder: 1 })] : [signer(1, n % 3 === 0 ? { reminderInterval: 1 } : {})];
  if (n % 5 === 2) caseFile.sendAt = inSeconds(3);
  // Nobody signs these: they expire (one timer, one sign.casefile.expired each). Their signer has a
  // reminder a "day" (3 s) after the request: expiry leaves it 3 s of margin for a loaded machine's
  // lag (at 4 s a run whose requests went out a second late expired every one unreminded).
  if (n % 6 === 3) return { caseFile: { ...caseFile, expireAt: inSeconds(6) }, sign: false };
  return { caseFile, sign: true };
}

/** Outside Jest (`pnpm soak`): the environment test/support/global-setup.ts gives a test run. */
async function ensureRunEnvironment(postgres: PostgresServer): Promise<void> {
  if (process.env.QUEUE_PREFIX && process.env.DATABASE_URL) return;
  const run = Date.now().toString(36);
  await setRunEnvironment(`esign-soak-${run}`, postgres.url(`esign_soak_${run}`));
}

class Replicas {
  readonly all: Replica[] = [];
  kills = 0;

  async start(world: World, count: number, extraEnv: Record<string, string>): Promise<void> {
    const gatewayPorts = await Promise.all(Array.from({ length: count }, () => freePort()));
    const env = world.env({
      OUTBOX_POLL_INTERVAL_MS: "1000",
      OUTBOX_RELAY_SERVICES: "casefile-worker",
      WEBHOOK_LADDER_SCALE: "0.2",
      REMINDER_DAY_MS: String(REMINDER_DAY_MS),
      JOB_POLL_LIMIT_PER_MINUTE: "0",
      // A killed replica's jobs go back to the others within seconds (BullMQ's stalled check), not 30 s.
      QUEUE_LOCK_DURATION_MS: "4000",
      QUEUE_STALLED_INTERVAL_MS: "2000",
      PUBLIC_BASE_URL: `http://127.0.0.1:${gatewayPorts[0]}`,
      ...extraEnv,
    });
    for (const name of SERVICES) {
      for (let i = 0; i < count; i++) {
        this.all.push({ name, port: name === "api-gateway" ? gatewayPorts[i]! : await freePort(), env });
      }
    }
    await Promise.all(this.all.map((r) => this.up(r)));
  }

  get gatewayUrls(): string[] {
    return this.all.filter((r) => r.name === "api-gateway").map((r) => `http://127.0.0.1:${r.port}`);
  }

  private async up(r: Replica): Promise<void> {
    r.proc = await startService(r.name, r.env, r.port);
  }

  /**
   * Starts a killed replica again, as an orchestrator would: a start that fails (PostgreSQL or Redis
   * away at that moment: a service refuses to start without them) is tried again until it holds.
   */
  private async upAgain(r: Replica): Promise<void> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        return await this.up(r);
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await sleep(500);
      }
    }
  }

  private readonly restarting = new Map<Replica, Promise<void>>();

  /**
   * SIGKILLs a random replica that is up, and starts it again where it was 300 ms later, without
   * waiting for that: on a busy machine a start takes seconds, and the kills must keep their pace.
   */
  async killOne(): Promise<string> {
    const up = this.all.filter((r) => !this.restarting.has(r));
    const r = up[Math.floor(Math.random() * up.length)]!;
    await r.proc?.kill();
    this.kills++;
    const back = sleep(300)
      .then(() => this.upAgain(r))
      .finally(() => this.restarting.delete(r));
    this.restarting.set(r, back);
    return `${r.name}:${r.port}`;
  }

  /** Every killed replica is up again. */
  async settled(): Promise<void> {
    await Promise.all([...this.restarting.values()]);
  }

  /** The error lines of every replica's output (the current process of each), for a failing run's log. */
  errorLines(max = 5): string[] {
    return this.all.flatMap((r) => (r.proc?.linesAt(["error"], max) ?? []).map((l) => `${r.name}:${r.port} ${l.slice(0, 1500)}`));
  }

  /** Every replica that died of something other than the chaos loop, with its last output. */
  crashed(): string[] {
    return this.all.filter((r) => r.proc && !r.proc.isRunning()).map((r) => `${r.name}:${r.port} exited\n${r.proc!.logs.slice(-2000)}`);
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.restarting.values()]);
    await Promise.all(this.all.map((r) => r.proc?.stop()));
  }
}

/** Waiting or active jobs of every queue, once they stop changing or reach zero. */
async function stuckJobs(world: World, redis: RedisTarget, timeoutMs: number): Promise<number> {
  const connection = createRedis(redis, "worker");
  const producer = new Producer(connection, world.queuePrefix);
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let n = 0;
      for (const q of Object.values(QUEUE))
        n += Object.values(await producer.queue(q).getJobCounts("wait", "active", "prioritized")).reduce((a, b) => a + b, 0);
      if (n === 0 || Date.now() > deadline) return n;
      await sleep(250);
    }
  } finally {
    await producer.close();
    connection.disconnect();
  }
}

/** Runs the soak and returns its report; `lost`, `doubled` and `stuck` are what a caller fails on. */
export async function runSoak(opts: SoakOptions): Promise<SoakReport> {
  if (opts.redisCluster && opts.redisRestarts > 0) throw new Error("the soak restarts a single redis-server only");
  const cluster: RedisCluster | undefined = opts.redisCluster ? await startRedisCluster(3) : undefined;
  const redis: RedisServer | undefined = cluster ? undefined : await startRedisServer({ appendfsync: "everysec" });
  const redisTarget: RedisTarget = cluster ? { REDIS_URL: cluster.url, REDIS_CLUSTER_NODES: cluster.nodes } : { REDIS_URL: redis!.url };
  const postgres = await startPostgresServer();
  const bouncer = opts.pgbouncer ? await startPgBouncer(postgres.port) : undefined;
  let world: World | undefined;
  let receiver: Receiver | undefined;
  const replicas = new Replicas();
  try {
    await ensureRunEnvironment(postgres);
    world = await createWorld("soak", {
      redisUrl: redisTarget.REDIS_URL,
      postgresUrl: postgres.url("postgres"),
      // On a cluster every key of the platform must hash to one slot: a hash-tagged prefix.
      ...(cluster ? { queuePrefix: `{esign-soak-${Date.now().toString(36)}}` } : {}),
    });
    receiver = await startReceiver();
    await replicas.start(world, opts.replicas, {
      // PgBouncer 1.18 in transaction mode cannot carry prepared statements (docs/operating.md).
      ...(bouncer ? { DATABASE_URL: bouncer.through(world.databaseUrl), DATABASE_SESSION_URL: world.databaseUrl, DB_PREPARED_STATEMENTS: "false" } : {}),
      ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodes.join(",") } : {}),
    });
    const via = [bouncer ? "through PgBouncer (transaction mode)" : "", cluster ? `on a ${cluster.nodes.length}-master Redis Cluster` : ""].filter(Boolean);
    opts.log(`${opts.replicas} replicas of each service up${via.length ? `, ${via.join(", ")}` : ""}; load for ${opts.seconds} s`);

    const customer = await world.customer();
    const healthy = deliveryLog(receiver, "/soak-all");
    const flaky = deliveryLog(receiver, "/soak-flaky", { failFirst: true });
    await world.subscribe(customer, receiver.url("/soak-all"), [...EVENT_TYPES]);
    await world.subscribe(customer, receiver.url("/soak-flaky"), FLAKY_TYPES);
    const trickle = new Trickle({
      gatewayUrl: replicas.gatewayUrls[0]!,
      gatewayUrls: replicas.gatewayUrls,
      caseFile: soakCase,
      token: await getToken(replicas.gatewayUrls[0]!, customer),
      db: world.db,
      encryptionKey: loadConfig(process.env).ENCRYPTION_KEY,
      pdf: await makePdf("Soak contract"),
      createEveryMs: opts.createEveryMs,
      signEveryMs: 150,
      signAfterMs: 1500,
    });

    // The chaos plan: dependency restarts spread evenly, replica kills between them.
    const started = Date.now();
    const endsAt = started + opts.seconds * 1000;
    const outages: { what: string; downAt: number; upAt: number }[] = [];
    // Restarts alternate (Redis, PostgreSQL, Redis, ...) and are spread evenly over the run.
    const kinds: ("redis" | "postgres")[] = [];
    for (let i = 0; i < Math.max(opts.redisRestarts, opts.postgresRestarts); i++) {
      if (i < opts.redisRestarts) kinds.push("redis");
      if (i < opts.postgresRestarts) kinds.push("postgres");
    }
    const plan = kinds.map((what, i) => ({ what, at: started + ((i + 1) * opts.seconds * 1000) / (kinds.length + 1) }));

    trickle.start();
    let nextKill = started + opts.killEveryMs;
    while (Date.now() < endsAt) {
      const due = plan.shift();
      if (due && Date.now() >= due.at) {
        const downAt = Date.now();
        if (due.what === "redis") await redis!.shutdown();
        else await postgres.shutdown();
        await sleep(opts.outageMs);
        if (due.what === "redis") await redis!.restart();
        else await postgres.restart();
        outages.push({ what: due.what, downAt, upAt: Date.now() });
        opts.log(`${due.what} restarted (${Date.now() - downAt} ms away)`);
        continue;
      }
      if (due) plan.unshift(due);
      if (opts.killEveryMs > 0 && Date.now() >= nextKill) {
        opts.log(`killed ${await replicas.killOne()} (restarting)`);
        nextKill = Date.now() + opts.killEveryMs;
        continue;
      }
      await sleep(100);
    }

    await replicas.settled();
    trickle.stopCreating();
    const drainDeadline = Date.now() + 60_000;
    while (!trickle.drained && Date.now() < drainDeadline) await sleep(200);
    await trickle.stop();
    // The last expiry timers are due a few seconds after the last creates: let them come.
    const lastExpiry = await world.db.caseFile.aggregate({ where: { customerId: customer.customerId }, _max: { expireAt: true } });
    const expiryDue = (lastExpiry._max.expireAt?.getTime() ?? 0) + 2000 - Date.now();
    if (expiryDue > 0) await sleep(expiryDue);
    opts.log(`load stopped after ${Math.round((Date.now() - started) / 1000)} s; waiting for quiescence`);

    const lost: string[] = [];
    let done: Awaited<ReturnType<typeof settle>> | undefined;
    try {
      done = await settle(world, customer.customerId, trickle, { healthy, flaky, flakyTypes: FLAKY_TYPES }, 90_000);
    } catch (err) {
      lost.push((err as Error).message);
    }
    const stuck = await stuckJobs(world, redisTarget, 30_000);
    lost.push(...replicas.crashed());

    const db = world.db;
    const caseFiles = await db.caseFile.findMany({
      where: { customerId: customer.customerId },
      select: { id: true, status: true, expireAt: true, documents: { select: { signable: true, sealedAt: true } } },
    });
    const completed = caseFiles.filter((c) => c.status === 5);
    const sealed = completed.filter((c) => c.documents.every((d) => !d.signable || d.sealedAt !== null));
    for (const c of completed) if (!sealed.includes(c)) lost.push(`case file ${c.id} completed but not sealed`);
    for (const g of trickle.givenUp) lost.push(`signer ${g.signerId} of case file ${g.caseFileId} could not sign: ${g.status} ${g.errorCode ?? ""}`);
    for (const id of trickle.signing) {
      const c = caseFiles.find((x) => x.id === id);
      if (c?.status === 5) continue;
      const signers = await db.signer.findMany({ where: { caseFileId: id }, select: { id: true, status: true } });
      lost.push(`case file ${id}: its signers were to sign, status ${String(c?.status)} (not completed); signers ${JSON.stringify(signers)}`);
    }
    // What the services said went wrong, when something was lost: the test's failure alone does not say.
    if (lost.length > 0) for (const line of replicas.errorLines()) opts.log(`error logged: ${line}`);
    const expiring = caseFiles.filter((c) => c.expireAt !== null);
    for (const c of expiring) if (c.status !== 7) lost.push(`case file ${c.id}: expireAt passed, status ${c.status} (not expired)`);

    // Timers and reminders happen once: one expiry event per case file, reminders a "day" apart.
    const doubled = done ? done.doubled.filter((d) => !done!.duplicateDeliveries.includes(d)) : [];
    const events = await db.event.findMany({
      where: { customerId: customer.customerId },
      select: { eventType: true, payload: true, occurredAt: true },
      orderBy: { seq: "asc" },
    });
    const idOf = (p: unknown) => JSON.stringify((p as { id?: unknown }).id);
    const expiredEvents = events.filter((e) => e.eventType === "sign.casefile.expired");
    if (expiredEvents.length !== new Set(expiredEvents.map((e) => idOf(e.payload))).size) doubled.push("a case file expired twice");
    const lastReminder = new Map<string, number>();
    for (const e of events.filter((x) => x.eventType === "sign.signer.reminderSent")) {
      const key = idOf(e.payload);
      const prev = lastReminder.get(key);
      if (prev !== undefined && e.occurredAt.getTime() - prev < REMINDER_DAY_MS / 2)
        doubled.push(`signer ${key} reminded twice within ${e.occurredAt.getTime() - prev} ms`);
      lastReminder.set(key, e.occurredAt.getTime());
    }

    // Recovery: a create accepted during an outage is measured from the end of that outage.
    const recovery = (done?.creates ?? []).map((c) => {
      const outage = outages.find((o) => c.acceptedAt >= o.downAt && c.acceptedAt <= o.upAt);
      return c.caseFileAt - (outage ? outage.upAt : c.acceptedAt);
    });
    opts.log(`create -> case file: ${JSON.stringify(spread(recovery))} ms; reminders sent: ${lastReminder.size} signers`);

    return {
      accepted: trickle.creates.filter((c) => c.jobId).length,
      refused: trickle.creates.filter((c) => !c.jobId).length,
      created: done?.creates.length ?? 0,
      completed: completed.length,
      sealed: sealed.length,
      expired: expiring.filter((c) => c.status === 7).length,
      events: events.length,
      deliveries: healthy.length + flaky.length,
      duplicates: done?.duplicateDeliveries.length ?? 0,
      doubled,
      lost,
      stuck,
      longestRecoveryMs: Math.max(0, ...recovery),
      reminded: lastReminder.size,
      kills: replicas.kills,
      restarts: outages.map((o) => `${o.what} ${o.upAt - o.downAt} ms`),
      ...(bouncer ? { pgbouncerTransactions: (await bouncer.stats(new URL(world.databaseUrl).pathname.slice(1))).transactions } : {}),
    };
  } finally {
    await replicas.stop();
    await receiver?.close();
    await world?.close().catch(() => undefined);
    await bouncer?.stop();
    await redis?.stop();
    await cluster?.stop();
    await postgres.stop();
  }
}

/** The report as the table `pnpm soak` prints. */
export function soakTable(r: SoakReport): string {
  const rows: [string, string | number][] = [
    ["accepted creates", r.accepted],
    ["refused creates (retryable)", r.refused],
    ["case files created", r.created],
    ["completed", r.completed],
    ["sealed", r.sealed],
    ["expired", r.expired],
    ["events", r.events],
    ["webhook deliveries", r.deliveries],
    ["duplicate deliveries", r.duplicates],
    ["doubled effects", r.doubled.length],
    ["lost", r.lost.length],
    ["stuck jobs", r.stuck],
    ["signers reminded", r.reminded],
    ["longest recovery (ms)", r.longestRecoveryMs],
    ["replicas killed", r.kills],
    ["dependency restarts", r.restarts.join(", ") || "none"],
    ...(r.pgbouncerTransactions === undefined ? [] : [["transactions through PgBouncer", r.pgbouncerTransactions] as [string, number]]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n");
}
