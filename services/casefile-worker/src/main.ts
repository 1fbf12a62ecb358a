import { startOutboxRelay } from "@esign/outbox-relay";
import { MailThrottle, startWorker, sweepOnReconnect } from "@esign/queue";
import { recoveryMetrics, runWorkerService } from "@esign/runtime";
import { createStorage } from "@esign/storage";
import { startSealer } from "./domain/start-sealer";
import type { WorkerContext } from "./context";
import { createCaseFileJob } from "./jobs/create-casefile.job";
import { sendCaseFileJob } from "./jobs/send-casefile.job";
import { purgeJobsJob } from "./jobs/purge-jobs.job";
import { requeuePendingJob } from "./jobs/requeue-pending.job";
import { advanceCaseFileJob } from "./jobs/advance-casefile.job";
import { finalizeCaseFileJob } from "./jobs/finalize-casefile.job";
import { expireCaseFileJob } from "./jobs/expire-casefile.job";
import { expireSignerJob } from "./jobs/expire-signer.job";
import { activateSignerJob } from "./jobs/activate-signer.job";
import { sweepPending } from "./domain/sweep-pending";

const DEFAULT_HEALTH_PORT = 3001;

// The database, Redis, producer, health server and ordered shutdown come from runWorkerService
// (packages/runtime); here only what is this service's own.
runWorkerService("casefile-worker", { defaultHealthPort: DEFAULT_HEALTH_PORT }, async ({ config, logger, db, redis, producer, workerOptions }) => {
  const sealer = await startSealer(config, db, logger);
  const mailThrottle = new MailThrottle(redis, config.QUEUE_PREFIX, config.MAILS_PER_CUSTOMER_PER_MINUTE);
  const ctx: WorkerContext = { config, logger, db, producer, mailThrottle, storage: await createStorage(config, logger), sealer };

  const worker = startWorker(
    "casefile",
    {
      create: (data, job) => createCaseFileJob(ctx, data, job),
      send: (data) => sendCaseFileJob(ctx, data),
      "purge-jobs": () => purgeJobsJob(ctx),
      "requeue-pending": () => requeuePendingJob(ctx),
      advance: (data) => advanceCaseFileJob(ctx, data),
      finalize: (data, job) => finalizeCaseFileJob(ctx, data, job),
      expire: (data, job) => expireCaseFileJob(ctx, data, job),
      "expire-signer": (data, job) => expireSignerJob(ctx, data, job),
      "activate-signer": (data, job) => activateSignerJob(ctx, data, job),
    },
    workerOptions,
  );
  const queue = producer.queue("casefile");
  const upsertSchedulers = async () => {
    await queue.upsertJobScheduler("purge-jobs", { every: 3600_000 }, { name: "purge-jobs", data: {} });
    await queue.upsertJobScheduler("requeue-pending", { every: config.SWEEP_INTERVAL_MS }, { name: "requeue-pending", data: {} });
  };
  await upsertSchedulers();
  // When Redis answers again, whatever PostgreSQL holds and Redis missed (creates stored while it was
  // away, lifecycle jobs lost with it) is enqueued at once instead of by the periodic sweep, which
  // waits for work to be 30 s overdue. The schedulers are upserted again for a Redis that lost its data.
  const recovery = recoveryMetrics();
  const reconnectSweep = sweepOnReconnect({
    connection: redis,
    name: "casefile_sweep",
    logger,
    metrics: recovery,
    sweep: async () => {
      await upsertSchedulers();
      return sweepPending(ctx, 0);
    },
  });

  // The outbox relay runs here (docs/architecture.md): the events that advance case files and send
  // signing requests are relayed while webhook delivery is stopped. Replicas (and a dispatcher named
  // in OUTBOX_RELAY_SERVICES) take disjoint batches (FOR UPDATE SKIP LOCKED).
  const relay = config.OUTBOX_RELAY_SERVICES.includes("casefile-worker") ? startOutboxRelay(config, db, logger, recovery) : undefined;

  // Shut down in runWorkerService's order: the sweep and the relay stop feeding, then the worker.
  return { feeders: [reconnectSweep, relay], workers: [worker] };
});
