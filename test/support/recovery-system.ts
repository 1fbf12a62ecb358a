import { loadConfig } from "@esign/config";
import { decryptSecret, type Db } from "@esign/db";
import { EVENT_TYPES, ZSigningLinkItem, ZStoredJobResult } from "@esign/schema";
import { z } from "zod";
import { getToken, postCreate, type UploadFile } from "./api";
import { makePdf } from "./pdf";
import { parsePrometheus } from "./prometheus";
import type { Receiver, ReceivedRequest } from "./receiver";
import { startService, type ServiceName, type ServiceProcess } from "./services";
import { postJson } from "./signing-api";
import type { World } from "./webhook-world";

/*
 * Shared by the recovery-*.test.ts files (not a test itself): the four services on a world of their
 * own, a steady trickle of creates and signings against the gateway, webhook receivers that log
 * every delivery with its wall-clock time, and the figures the tests assert on.
 */

/** One HTTP answer the trickle got. Times are wall-clock ms (Date.now()), comparable to the database's. */
export interface Answer {
  sentAt: number;
  answeredAt: number;
  /** 0: no HTTP answer at all (the connection failed). */
  status: number;
  retryAfter: string | null;
  errorCode?: string;
}

export interface CreateAnswer extends Answer {
  jobId?: string;
}

export interface RecoverySystem {
  gateway: ServiceProcess;
  services: ServiceProcess[];
  stop(): Promise<void>;
}

const WORKERS: ServiceName[] = ["casefile-worker", "notifier", "webhook-dispatcher"];

/** The error lines the system's services logged, for a failing run's output (a 500 says nothing on its own). */
export function errorLines(system: RecoverySystem, max = 10): string[] {
  return system.services.flatMap((svc) => svc.linesAt(["error"], max).map((l) => `${svc.name}: ${l.slice(0, 2000)}`));
}

/** The timeline of both recovery tests, and the bound the issue sets. */
export const TIMING = {
  /** Case files, and events to their subscriptions, this soon after the dependency answers again. */
  boundMs: 5000,
  /** How long the dependency is away. */
  outageMs: 5000,
  /** Trickle before the outage: signable case files build up, so signatures happen during it. */
  warmupMs: 6000,
  /** Trickle after it. */
  afterMs: 4000,
} as const;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The gateway and the three workers on the world's database and Redis, production defaults except
 * the ladder (x0.2: a failed first attempt is retried 1 s later, so retries are queued across an outage).
 */
export async function startRecoverySystem(world: World): Promise<RecoverySystem> {
  // The relay's production poll (1 s): what an event waits for when nothing wakes the relay.
  // The relay where production runs it: in the casefile-worker only.
  const env = world.env({ OUTBOX_POLL_INTERVAL_MS: "1000", LOG_LEVEL: "info", WEBHOOK_LADDER_SCALE: "0.2", OUTBOX_RELAY_SERVICES: "casefile-worker" });
  const gateway = await startService("api-gateway", env);
  const workers = await Promise.all(WORKERS.map((name) => startService(name, { ...env, PUBLIC_BASE_URL: gateway.url })));
  const services = [gateway, ...workers];
  return { gateway, services, stop: async () => void (await Promise.all(services.map((s) => s.stop()))) };
}

/** A delivery as the receiver saw it: wall-clock time and what it answered. */
export interface Delivery {
  eventId: string;
  eventType: string;
  at: number;
  status: number;
}

/**
 * Makes `path` a subscription endpoint that logs every delivery. `failFirst`: the first attempt of
 * each event is answered 500, so every event also goes through a retry of the ladder.
 */
export function deliveryLog(receiver: Receiver, path: string, opts: { failFirst?: boolean } = {}): Delivery[] {
  const log: Delivery[] = [];
  receiver.on(path, (req: ReceivedRequest) => {
    const eventId = String(req.headers["x-event-id"]);
    const first = !log.some((d) => d.eventId === eventId);
    const status = opts.failFirst && first ? 500 : 200;
    log.push({ eventId, eventType: String(req.headers["x-event-type"]), at: Date.now(), status });
    return { status };
  });
  return log;
}

/** One create of a trickle: its case file, and whether its signers sign (false: left to a timer). */
export interface TrickleCase {
  caseFile: Record<string, unknown>;
  sign: boolean;
}

export interface TrickleOptions {
  gatewayUrl: string;
  /** Replicas: creates and signings go to these in turn (default: gatewayUrl alone). */
  gatewayUrls?: string[];
  /** The n-th create's case file (default: one signer, one document, signed). */
  caseFile?: (n: number, pdfName: string) => TrickleCase;
  token: string;
  db: Db;
  encryptionKey: string;
  pdf: Buffer;
  createEveryMs: number;
  signEveryMs: number;
  /** A signer signs this long after the case file was created (a stock of signable case files builds up). */
  signAfterMs: number;
}

interface Signable {
  caseFileId: number;
  signerId: number;
  name: string;
  link: string;
  readyAt: number;
}

const ZJobRow = z.object({ id: z.string(), result: ZStoredJobResult });

// A signing refused for now (the signer's round or sendAt has not come): the signer tries again later.
const NOT_YET = new Set(["not_yet_sent", "not_active", "service_unavailable"]);

const defaultCase = (n: number, pdfName: string): TrickleCase => ({
  caseFile: {
    title: `Recovery ${n}`,
    signers: [{ name: `Signer ${n}`, email: `signer${n}@example.com`, enableInsecureSigning: true, insecureSigningMethods: ["text"] }],
    documents: [{ title: "Contract", name: pdfName }],
  },
  sign: true,
});

const answerOf = async (sentAt: number, res: { status: number; headers: Headers; body: unknown }): Promise<Answer> => {
  const body = res.body as { error?: unknown } | undefined;
  return {
    sentAt,
    answeredAt: Date.now(),
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    ...(typeof body?.error === "string" ? { errorCode: body.error } : {}),
  };
};

const failedAnswer = (sentAt: number, err: unknown): Answer => ({
  sentAt,
  answeredAt: Date.now(),
  status: 0,
  retryAfter: null,
  errorCode: (err as Error).message,
});

/**
 * A steady trickle, as a few well-behaved clients would make it: a create every `createEveryMs`
 * (sent on schedule, whatever the previous one is doing), and a signer signing every `signEveryMs`
 * once their case file has existed for `signAfterMs`. A signing answered 503 is tried again later,
 * as its signer would. The test's own view of the database tells it when a case file exists (a
 * status poll may be answered once per 5 s only); during a PostgreSQL outage that view just waits.
 */
export class Trickle {
  readonly creates: CreateAnswer[] = [];
  readonly signings: Answer[] = [];
  /** Signers whose signature was accepted. */
  readonly signed = new Set<number>();
  /** Case files whose signers were told to sign (all of them, eventually). */
  readonly signing = new Set<number>();
  /** Signings given up on: an answer that is neither success nor "try later". */
  readonly givenUp: { caseFileId: number; signerId: number; status: number; errorCode?: string }[] = [];
  /** Creation jobs accepted and not yet seen completed: do their signers sign? */
  private readonly waiting = new Map<string, boolean>();
  private readonly signable: Signable[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private watching = false;
  private counter = 0;
  private turn = 0;
  /** Signings under way: a 503 puts its signer back into the stock, so the stock is not final yet. */
  private signingNow = 0;

  constructor(private readonly o: TrickleOptions) {}

  /** The next gateway, in turn. */
  private gateway(): string {
    const all = this.o.gatewayUrls ?? [this.o.gatewayUrl];
    return all[this.turn++ % all.length]!;
  }

  start(): void {
    this.timers.push(setInterval(() => this.track(this.createOne()), this.o.createEveryMs));
    this.timers.push(setInterval(() => this.track(this.signOne()), this.o.signEveryMs));
    this.timers.push(setInterval(() => this.track(this.watch()), 200));
  }

  /** Stops creating; signers go on signing what they have and what completes meanwhile. */
  stopCreating(): void {
    clearInterval(this.timers[0]);
  }

  /** Every accepted create was seen completed and every signer of it has signed. */
  get drained(): boolean {
    return this.waiting.size === 0 && this.signable.length === 0 && this.signingNow === 0;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private files(): UploadFile[] {
    return [{ name: "contract.pdf", content: this.o.pdf }];
  }

  private async createOne(): Promise<void> {
    const n = ++this.counter;
    const { caseFile, sign } = (this.o.caseFile ?? defaultCase)(n, "contract.pdf");
    const sentAt = Date.now();
    try {
      const res = await postCreate(this.gateway(), this.o.token, { caseFile }, this.files());
      const jobId = res.status === 200 ? res.body.jobs[0]?.uuid : undefined;
      this.creates.push({ ...(await answerOf(sentAt, res)), ...(jobId ? { jobId } : {}) });
      if (jobId) this.waiting.set(jobId, sign);
    } catch (err) {
      this.creates.push(failedAnswer(sentAt, err));
    }
  }

  /** Completed creation jobs: their signing links join the signable stock. */
  private async watch(): Promise<void> {
    if (this.watching || this.waiting.size === 0) return;
    this.watching = true;
    try {
      const rows = await this.o.db.creationJob.findMany({
        where: { id: { in: [...this.waiting.keys()] }, status: "completed" },
        select: { id: true, result: true },
      });
      for (const row of rows) {
        const { id, result } = ZJobRow.parse(row);
        const sign = this.waiting.get(id);
        this.waiting.delete(id);
        if (!sign) continue;
        const caseFileId = result.caseFile.id;
        this.signing.add(caseFileId);
        const links = z.array(ZSigningLinkItem).parse(JSON.parse(decryptSecret(result.signingLinksEnc, this.o.encryptionKey)));
        for (const l of links) this.signable.push({ caseFileId, signerId: l.signerId, name: l.name, link: l.signingLink, readyAt: Date.now() });
      }
    } catch {
      // The test's own database connection is down with PostgreSQL: look again on the next tick.
    } finally {
      this.watching = false;
    }
  }

  private async signOne(): Promise<void> {
    this.signingNow++;
    try {
      await this.signNext();
    } finally {
      this.signingNow--;
    }
  }

  private async signNext(): Promise<void> {
    const i = this.signable.findIndex((s) => s.readyAt <= Date.now() - this.o.signAfterMs);
    if (i < 0) return;
    const [next] = this.signable.splice(i, 1);
    const sentAt = Date.now();
    // The link names the first gateway; any replica serves the same path.
    const link = new URL(next!.link);
    const at = new URL(link.pathname, this.gateway()).toString();
    try {
      const res = await postJson(`${at}/sign`, { method: "text", value: next!.name });
      const answer = await answerOf(sentAt, res);
      this.signings.push(answer);
      // already_signed: an earlier attempt went through but its answer was lost (a killed replica).
      if (res.status === 200 || answer.errorCode === "already_signed") this.signed.add(next!.signerId);
      else if (res.status === 503 || NOT_YET.has(answer.errorCode ?? "")) this.signable.push({ ...next!, readyAt: Date.now() - this.o.signAfterMs + 1000 });
      else
        this.givenUp.push({
          caseFileId: next!.caseFileId,
          signerId: next!.signerId,
          status: res.status,
          ...(answer.errorCode ? { errorCode: answer.errorCode } : {}),
        });
    } catch (err) {
      this.signings.push(failedAnswer(sentAt, err));
      this.signable.push(next!);
    }
  }
}

/** Percentiles and the maximum of a list of millisecond figures, for the printed summary. */
export function spread(values: number[]): { n: number; p50: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0 };
}

/** `esign_recovery_last_seconds` of every service of the system: service -> "dependency/backlog" -> seconds. */
export async function lastRecoveries(system: RecoverySystem): Promise<Record<string, Record<string, number>>> {
  return Object.fromEntries(await Promise.all(system.services.map(async (s) => [s.name, await lastRecoveriesOf(s)] as const)));
}

async function lastRecoveriesOf(service: ServiceProcess): Promise<Record<string, number>> {
  const res = await fetch(`${service.url}/metrics`);
  const samples = parsePrometheus(await res.text());
  const out: Record<string, number> = {};
  for (const s of samples) if (s.name === "esign_recovery_last_seconds") out[`${s.labels.dependency}/${s.labels.backlog}`] = s.value;
  return out;
}

export interface SettledCreate {
  jobId: string;
  acceptedAt: number;
  caseFileAt: number;
}

export interface SettledEvent {
  id: string;
  eventType: string;
  occurredAt: number;
  /** First 2xx delivery to the healthy subscription. */
  healthyAt: number;
  /** First 2xx delivery to the failing-first subscription, for the types it holds. */
  flakyAt?: number;
}

export interface Settled {
  creates: SettledCreate[];
  events: SettledEvent[];
  /** Everything that happened more than once: each line names it. Expected: none. */
  doubled: string[];
  /**
   * The part of `doubled` that is a webhook POSTed again (at least once: expected after a dispatcher
   * is killed mid-request); the rest is work done twice to effect.
   */
  duplicateDeliveries: string[];
}

// Lifecycle events that happen once per signer or case file on this trickle's path (one signer,
// one round, no reminders): a second one would be a job run twice to effect.
const ONCE_TYPES = new Set([
  "sign.signer.requestActivated",
  "sign.signer.requestSent",
  "sign.signer.signed",
  "sign.signer.finalized",
  "sign.casefile.completed",
]);

const firstSuccess = (log: Delivery[], eventId: string) => log.find((d) => d.eventId === eventId && d.status < 300)?.at;

export interface SettleSubscriptions {
  healthy: Delivery[];
  flaky: Delivery[];
  flakyTypes: string[];
}

/**
 * The run's outcome once it has settled - every accepted create has its case file, every signed case
 * file is completed, and every event of the customer reached its subscriptions - or what is still
 * missing (also when the test's own database connection is down).
 */
async function settleOnce(world: World, customerId: number, trickle: Trickle, subscriptions: SettleSubscriptions): Promise<Settled | string> {
  try {
    const accepted = trickle.creates.flatMap((c) => (c.jobId ? [{ jobId: c.jobId, acceptedAt: c.answeredAt }] : []));
    const caseFiles = await world.db.caseFile.findMany({
      where: { creationJobId: { in: accepted.map((c) => c.jobId) } },
      select: { creationJobId: true, createdAt: true },
    });
    if (caseFiles.length < accepted.length) {
      const have = new Set(caseFiles.map((c) => c.creationJobId));
      const missing = accepted.filter((c) => !have.has(c.jobId)).map((c) => c.jobId);
      const jobs = await world.db.creationJob.findMany({ where: { id: { in: missing } }, select: { id: true, status: true, errorMessage: true } });
      return `${missing.length} of ${accepted.length} accepted creates have no case file: ${JSON.stringify(jobs.slice(0, 5))}`;
    }
    const unfinished = await world.db.signer.findMany({
      where: { id: { in: [...trickle.signed] }, caseFile: { status: { not: 5 } } },
      select: { id: true, caseFile: { select: { id: true, status: true } } },
    });
    if (unfinished.length > 0) return `${unfinished.length} signed case files not completed: ${JSON.stringify(unfinished.slice(0, 5))}`;
    const rows = await world.db.event.findMany({
      where: { customerId },
      select: { id: true, eventType: true, occurredAt: true, payload: true },
      orderBy: { seq: "asc" },
    });
    const events: SettledEvent[] = [];
    for (const e of rows) {
      const healthyAt = firstSuccess(subscriptions.healthy, e.id);
      const flakyAt = subscriptions.flakyTypes.includes(e.eventType) ? firstSuccess(subscriptions.flaky, e.id) : undefined;
      if (healthyAt === undefined || (subscriptions.flakyTypes.includes(e.eventType) && flakyAt === undefined)) {
        return `event ${e.eventType} ${e.id} (written ${e.occurredAt.toISOString()}) not delivered: healthy ${String(healthyAt)}, failing-first ${String(flakyAt)}`;
      }
      events.push({ id: e.id, eventType: e.eventType, occurredAt: e.occurredAt.getTime(), healthyAt, ...(flakyAt === undefined ? {} : { flakyAt }) });
    }

    const doubled: string[] = [];
    const count = <T>(items: T[], key: (t: T) => string) => {
      const n = new Map<string, number>();
      for (const i of items) n.set(key(i), (n.get(key(i)) ?? 0) + 1);
      return [...n].filter(([, c]) => c > 1);
    };
    for (const [id, n] of count(caseFiles, (c) => String(c.creationJobId))) doubled.push(`${n} case files for creation job ${id}`);
    const once = rows.filter((e) => ONCE_TYPES.has(e.eventType));
    for (const [key, n] of count(once, (e) => `${e.eventType} ${JSON.stringify((e.payload as { id?: unknown }).id)}`)) doubled.push(`${n} events ${key}`);
    const duplicateDeliveries: string[] = [];
    for (const [id, n] of count(subscriptions.healthy, (d) => d.eventId)) duplicateDeliveries.push(`${n} POSTs of event ${id} to the healthy subscription`);
    for (const [id, n] of count(
      subscriptions.flaky.filter((d) => d.status < 300),
      (d) => d.eventId,
    ))
      duplicateDeliveries.push(`${n} 2xx deliveries of event ${id} to the failing-first subscription`);
    doubled.push(...duplicateDeliveries);

    const caseFileAt = new Map(caseFiles.map((c) => [c.creationJobId, c.createdAt.getTime()]));
    return { creates: accepted.map((c) => ({ ...c, caseFileAt: caseFileAt.get(c.jobId)! })), events, doubled, duplicateDeliveries };
  } catch (err) {
    // The test's own connection to PostgreSQL is down (the PostgreSQL test): not settled yet.
    return `not read: ${(err as Error).message}`;
  }
}

/** Waits until the run has settled (settleOnce); on timeout the error says what was still missing. */
export async function settle(world: World, customerId: number, trickle: Trickle, subscriptions: SettleSubscriptions, timeoutMs = 60_000): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await settleOnce(world, customerId, trickle, subscriptions);
    if (typeof outcome !== "string") return outcome;
    if (Date.now() > deadline) throw new Error(`not settled after ${timeoutMs} ms: ${outcome}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The types the failing-first subscription holds: signatures written during an outage, completions after. */
export const FLAKY_TYPES = ["sign.signer.signed", "sign.casefile.completed"];

export interface RecoveryRun {
  customerId: number;
  trickle: Trickle;
  subscriptions: SettleSubscriptions;
}

/**
 * A customer of its own with two subscriptions on the receiver (`/<name>-all`: every event type,
 * healthy; `/<name>-flaky`: FLAKY_TYPES, each event's first attempt answered 500) and the trickle both
 * recovery tests run: a create every 333 ms (3/s), a signature every 500 ms, 2.5 s after its case file.
 */
export async function recoveryRun(world: World, system: RecoverySystem, receiver: Receiver, name: string): Promise<RecoveryRun> {
  const customer = await world.customer();
  const healthy = deliveryLog(receiver, `/${name}-all`);
  const flaky = deliveryLog(receiver, `/${name}-flaky`, { failFirst: true });
  await world.subscribe(customer, receiver.url(`/${name}-all`), [...EVENT_TYPES]);
  await world.subscribe(customer, receiver.url(`/${name}-flaky`), FLAKY_TYPES);
  const trickle = new Trickle({
    gatewayUrl: system.gateway.url,
    token: await getToken(system.gateway.url, customer),
    db: world.db,
    encryptionKey: loadConfig(process.env).ENCRYPTION_KEY,
    pdf: await makePdf(`Recovery ${name}`),
    createEveryMs: 333,
    signEveryMs: 500,
    signAfterMs: 2500,
  });
  return { customerId: customer.customerId, trickle, subscriptions: { healthy, flaky, flakyTypes: FLAKY_TYPES } };
}
