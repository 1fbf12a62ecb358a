import type { Server } from "node:http";
import type { AppConfig } from "@esign/config";
import { ping, run, type Db } from "@esign/db";
import { Producer, assertNoEviction, createRedis, type RedisConnection, type RedisRole, type WorkerOptions } from "@esign/queue";
import { openDatabase } from "./database";
import { portOf, startWorkerHealth } from "./health-server";
import { queueMetrics } from "./metrics/queue-metrics";
import { runService, type RunningService, type ServiceContext } from "./run-service";

export interface WorkerServiceOptions {
  /** Where /healthz, /readyz and /metrics listen when HEALTH_PORT is unset (each worker has its own). */
  defaultHealthPort: number;
  /** The PostgreSQL pool's size when DATABASE_POOL_SIZE is unset (otherwise 10). */
  defaultPoolSize?: (config: AppConfig) => number;
}

/** What every worker process opens before its own parts, handed to its start. */
export interface WorkerBoot extends ServiceContext {
  db: Db;
  /** The workers' Redis connection: it waits through outages (BullMQ blocks on it). Checked for noeviction. */
  redis: RedisConnection;
  /** Enqueues on `redis`: a job's follow-ups wait through a Redis outage and land once it answers. */
  producer: Producer;
  /** What every startWorker call of the process shares (a worker may override `concurrency`). */
  workerOptions: WorkerOptions;
  /** Another Redis connection (a fail-fast "producer" one, say), disconnected with the others. */
  openRedis(role: RedisRole): RedisConnection;
  /** Another producer on `connection`, closed with the others. */
  openProducer(connection: RedisConnection): Producer;
}

/** A part the shutdown stops or closes; `undefined` stands for one this replica did not start. */
export type Stoppable = { stop(): Promise<void> } | { close?(): unknown } | undefined;

/** A worker's own parts, in the order they are shut down. */
export interface WorkerParts {
  /** What puts work in besides the queues: outbox relays, sweep timers, reconnect sweeps. Stopped first. */
  feeders?: Stoppable[];
  /** The queue workers (startWorker). Closed next: each stops fetching and waits for its jobs in flight. */
  workers: ReadonlyArray<{ close(): Promise<void> }>;
  /** What the job handlers use (a mailer, an HTTP sender): closed once no job runs. */
  resources?: Stoppable[];
}

export interface WorkerService extends RunningService {
  /** Where /healthz, /readyz and /metrics answer (HEALTH_PORT 0 picks a free one). */
  readonly healthPort: number;
}

function stopPart(part: Stoppable): unknown {
  if (part === undefined) return undefined;
  return "stop" in part ? part.stop() : part.close?.();
}

interface Opened {
  db: Db;
  connections: RedisConnection[];
  producers: Producer[];
  parts?: WorkerParts;
  health?: Server;
}

/**
 * The shutdown, in an order that loses no work: nothing new is started, the jobs in flight finish
 * with everything they use still open, and only then go the shared connections. A drain step (/readyz
 * answering 503 before anything stops) would go first.
 */
async function shutDown({ db, connections, producers, parts, health }: Opened): Promise<void> {
  // 1. Stop taking work from outside the queues: relays, sweeps (each waits for a pass in progress).
  await Promise.all((parts?.feeders ?? []).map(stopPart));
  // 2. The workers stop fetching; BullMQ's close waits for the jobs in flight, which still have the
  //    database, Redis and the producers.
  await Promise.all((parts?.workers ?? []).map((w) => w.close()));
  // 3. What the handlers used, now idle.
  await Promise.all((parts?.resources ?? []).map(stopPart));
  // 4. The producers: the last follow-up jobs came from the jobs that just finished.
  await Promise.all(producers.map((p) => p.close()));
  // 5. The health server, 6. the Redis connections, 7. the database.
  health?.close();
  for (const connection of connections) connection.disconnect();
  await db.$disconnect();
}

/**
 * Boots a queue worker process around its own parts: the database (a pool of DATABASE_POOL_SIZE,
 * typed-SQL figures on /metrics), the workers' Redis connection (refused unless Redis never evicts:
 * BullMQ would lose jobs), a producer on it, the options every worker shares, then `start` (the
 * service's queues, handlers, relays, sweeps), and last the health server, so /readyz answers only once
 * everything runs. `close()` shuts down in the order of `shutDown` above. A start that fails closes
 * what was opened and rejects.
 */
export async function startWorkerService(
  ctx: ServiceContext,
  options: WorkerServiceOptions,
  start: (boot: WorkerBoot) => Promise<WorkerParts>,
): Promise<WorkerService> {
  const { config, logger } = ctx;
  const opened: Opened = {
    db: openDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE ?? options.defaultPoolSize?.(config), {
      countStatements: config.DB_STATEMENT_METRICS,
      preparedStatements: config.DB_PREPARED_STATEMENTS,
    }),
    connections: [],
    producers: [],
  };
  const openRedis = (role: RedisRole) => {
    const connection = createRedis(config, role);
    opened.connections.push(connection);
    return connection;
  };
  const openProducer = (connection: RedisConnection) => {
    const producer = new Producer(connection, config.QUEUE_PREFIX);
    opened.producers.push(producer);
    return producer;
  };
  const redis = openRedis("worker");
  try {
    await assertNoEviction(redis);
    const workerOptions: WorkerOptions = {
      connection: redis,
      prefix: config.QUEUE_PREFIX,
      logger,
      metrics: queueMetrics({ logger }),
      concurrency: config.WORKER_CONCURRENCY,
      lockDuration: config.QUEUE_LOCK_DURATION_MS,
      stalledInterval: config.QUEUE_STALLED_INTERVAL_MS,
    };
    opened.parts = await start({ ...ctx, db: opened.db, redis, producer: openProducer(redis), workerOptions, openRedis, openProducer });
    const db = opened.db;
    const health = await startWorkerHealth(config, options.defaultHealthPort, { postgres: () => run(db, ping, {}), redis: () => redis.ping() }, (check, err) =>
      logger.warn("readiness check failed", { check, error: err.message }),
    );
    opened.health = health;
    return { healthPort: portOf(health), close: () => shutDown(opened) };
  } catch (err) {
    await shutDown(opened).catch(() => undefined);
    throw err;
  }
}

/** A worker service's process: `runService` (config, logger, metrics, signals) around `startWorkerService`. */
export function runWorkerService(name: string, options: WorkerServiceOptions, start: (boot: WorkerBoot) => Promise<WorkerParts>): void {
  runService(name, (ctx) => startWorkerService(ctx, options, start));
}
