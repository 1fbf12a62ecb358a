import { randomBytes, randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import {
  applyMigrations,
  createPrisma,
  dropDatabase,
  encryptSecret,
  ensureDatabase,
  emitEvent,
  emitEvents,
  type Db,
  type OutboxEvent,
  type WebhookAttempt,
} from "@esign/db";
import { Producer, type Job } from "@esign/queue";
import { caseFileEvent, type CaseFileEventType } from "@esign/schema";
import { TEST_ENCRYPTION_KEY } from "./api";
import { startService, type ServiceProcess } from "./services";

/*
 * Shared by the webhook-delivery*.test.ts files (not a test itself). Each file gets a "world" of
 * its own: its own database and Redis key prefix. The outbox relay claims every unrelayed event of
 * its database, so two dispatchers configured differently (ladder scale, production mode) on one
 * database would deliver each other's events; a world per file (or per configuration) keeps every
 * test's deliveries with the dispatcher the test started, also when Jest runs files in parallel.
 */

/**
 * The event type the helpers emit and subscribe to by default: one with no internal reaction in
 * @esign/schema's event routes, so the relay enqueues nothing but the webhook fan-out for it.
 */
export const DEFAULT_EVENT_TYPE = "sign.casefile.expired";

export interface World {
  readonly name: string;
  readonly databaseUrl: string;
  readonly queuePrefix: string;
  readonly redisUrl: string;
  readonly db: Db;
  /** Environment for services of this world (merge test-specific settings on top). */
  env(extra?: Record<string, string>): Record<string, string>;
  startDispatcher(extra?: Record<string, string>): Promise<ServiceProcess>;
  /** A producer/queue view on this world's Redis prefix, for looking at jobs. */
  producer(): Producer;
  customer(): Promise<CustomerCredentials>;
  subscribe(customer: CustomerCredentials, endpoint: string, eventTypes?: string[]): Promise<{ id: string; secret: string }>;
  /** Writes an event the way services do: inside a transaction, through the outbox. */
  emit(customerId: number, event?: { eventType?: CaseFileEventType; payload?: { id: number; status: number } }): Promise<string>;
  /** Writes `count` events in one transaction (one commit, one NOTIFY); ids in outbox order. */
  emitMany(customerId: number, count: number): Promise<string[]>;
  /** The events/dispatch job that carried the event (its data names it), if any is kept. */
  dispatchJobOf(eventId: string): Promise<Job | undefined>;
  attempts(deliveryFilter: { eventId?: string; subscriptionId?: string }): Promise<WebhookAttempt[]>;
  close(): Promise<void>;
}

/** The event the helpers emit unless told otherwise: payload id `n`, status 7 (expired). */
const defaultEvent = (customerId: number, n: number): OutboxEvent => caseFileEvent({ id: n, customerId }, 7, DEFAULT_EVENT_TYPE);

export interface WorldOptions {
  /** Another Redis than the run's (a test's own redis-server). */
  redisUrl?: string;
  /** Another PostgreSQL server than the run's (a test's own cluster): any database URL on it. */
  postgresUrl?: string;
  /** Another key prefix than `<run's>:<name>` (a hash-tagged one on Redis Cluster). */
  queuePrefix?: string;
}

export async function createWorld(name: string, opts: WorldOptions = {}): Promise<World> {
  const runDb = process.env.DATABASE_URL;
  const runPrefix = process.env.QUEUE_PREFIX;
  if (!runDb || !runPrefix) throw new Error("run through jest: global-setup sets DATABASE_URL and QUEUE_PREFIX");
  const url = new URL(runDb);
  url.pathname = `${url.pathname}_${name}`;
  if (opts.postgresUrl) url.host = new URL(opts.postgresUrl).host;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  await applyMigrations(databaseUrl);
  // Under the run's prefix, so the global teardown removes these keys too.
  const queuePrefix = opts.queuePrefix ?? `${runPrefix}:${name}`;
  const redisUrl = opts.redisUrl ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const db = createPrisma(databaseUrl, 4);
  const services: ServiceProcess[] = [];
  let redis: Redis | undefined;
  let producer: Producer | undefined;

  const getProducer = (): Producer => {
    redis ??= new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    producer ??= new Producer(redis, queuePrefix);
    return producer;
  };

  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: queuePrefix,
    REDIS_URL: redisUrl,
    OUTBOX_POLL_INTERVAL_MS: "250",
    // These suites run the dispatcher alone (no casefile-worker): it relays the outbox itself.
    OUTBOX_RELAY_SERVICES: "casefile-worker,webhook-dispatcher",
    ...extra,
  });

  return {
    name,
    databaseUrl,
    queuePrefix,
    redisUrl,
    db,
    env,
    async startDispatcher(extra = {}) {
      const svc = await startService("webhook-dispatcher", env(extra));
      services.push(svc);
      return svc;
    },
    producer: getProducer,
    customer() {
      return createCustomer(db, { name: `Webhook customer ${randomBytes(3).toString("hex")}` }, TEST_ENCRYPTION_KEY);
    },
    async subscribe(customer, endpoint, eventTypes = [DEFAULT_EVENT_TYPE]) {
      const secret = `whsec_${randomBytes(32).toString("base64url")}`;
      const sub = await db.webhookSubscription.create({
        data: {
          id: randomUUID(),
          customerId: customer.customerId,
          createdByUserId: customer.userId,
          endpoint,
          eventTypes,
          secretEnc: encryptSecret(secret, TEST_ENCRYPTION_KEY),
        },
      });
      return { id: sub.id, secret };
    },
    emit(customerId, event = {}) {
      const { id, status } = event.payload ?? { id: 1, status: 7 };
      return db.$transaction((tx) => emitEvent(tx, caseFileEvent({ id, customerId }, status, event.eventType ?? DEFAULT_EVENT_TYPE)));
    },
    emitMany(customerId, count) {
      return db.$transaction((tx) =>
        emitEvents(
          tx,
          Array.from({ length: count }, (_, i) => defaultEvent(customerId, i + 1)),
        ),
      );
    },
    async dispatchJobOf(eventId) {
      const jobs = await getProducer().queue("events").getJobs(["completed", "failed", "active", "wait", "delayed", "prioritized"]);
      return jobs.find((job) => {
        const data = job.data as { eventId?: string; eventIds?: string[] };
        return data.eventId === eventId || data.eventIds?.includes(eventId);
      });
    },
    attempts(filter) {
      return db.webhookAttempt.findMany({ where: filter, orderBy: { attemptNumber: "asc" } });
    },
    async close() {
      await Promise.all(services.map((s) => s.stop()));
      await producer?.close();
      redis?.disconnect();
      await db.$disconnect();
      if (process.env.KEEP_TEST_DATA !== "1") await dropDatabase(databaseUrl);
    },
  };
}

/** Polls `probe` until it returns a truthy value (returned), or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
