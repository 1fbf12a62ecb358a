import { createPrisma, ping, run, typedSqlStats } from "@esign/db";
import { createMailer } from "@esign/mailer";
import { Producer, assertNoEviction, createRedis, startWorker } from "@esign/queue";
import { queueMetrics, runService, startWorkerHealth, typedSqlMetrics } from "@esign/runtime";
import { createStorage } from "@esign/storage";
import { createMailboxGateway } from "./channels/create-mailbox-gateway";
import type { NotifierContext } from "./context";
import { MailThrottle, withMailThrottle } from "./domain/mail-throttle";
import { completedJob } from "./jobs/completed.job";
import { reminderJob } from "./jobs/reminder.job";
import { signingRequestJob } from "./jobs/signing-request.job";
import { subscriptionDisabledJob } from "./jobs/subscription-disabled.job";

const DEFAULT_HEALTH_PORT = 3002;

// Email (SMTP) and e-Boks messages, one job per kind of message on the `notifications` queue.
runService("notifier", async ({ config, logger }) => {
  // A notice holds a connection for its transaction while the mail goes out: one per job, plus
  // headroom for the readiness check.
  const db = createPrisma(config.DATABASE_URL, config.DATABASE_POOL_SIZE ?? config.WORKER_CONCURRENCY + 2);
  typedSqlMetrics(typedSqlStats);
  const connection = createRedis(config, "worker");
  await assertNoEviction(connection);
  const mailer = createMailer(config, logger);
  const mailbox = createMailboxGateway(config, logger);
  // Reminders are queued from here, on the notifications queue this process also works.
  const producer = new Producer(connection, config.QUEUE_PREFIX);
  const storage = await createStorage(config);
  const mailThrottle = new MailThrottle(connection, config.QUEUE_PREFIX, config.MAILS_PER_CUSTOMER_PER_MINUTE);
  const ctx: NotifierContext = { config, logger, db, mailer, mailbox, producer, storage, mailThrottle };

  const worker = startWorker(
    "notifications",
    {
      "subscription-disabled": (data) => subscriptionDisabledJob(ctx, data),
      "signing-request": (data, job) => withMailThrottle(job, () => signingRequestJob(ctx, data)),
      reminder: (data, job) => withMailThrottle(job, () => reminderJob(ctx, data)),
      completed: (data, job) => withMailThrottle(job, () => completedJob(ctx, data)),
    },
    {
      connection,
      prefix: config.QUEUE_PREFIX,
      logger,
      metrics: queueMetrics({ logger }),
      concurrency: config.WORKER_CONCURRENCY,
      lockDuration: config.QUEUE_LOCK_DURATION_MS,
      stalledInterval: config.QUEUE_STALLED_INTERVAL_MS,
    },
  );

  const health = await startWorkerHealth(
    config,
    DEFAULT_HEALTH_PORT,
    {
      postgres: () => run(db, ping, {}),
      redis: () => connection.ping(),
    },
    (check, err) => logger.warn("readiness check failed", { check, error: err.message }),
  );
  return {
    async close() {
      // The worker first: a job in flight finishes its mail and its commit before anything closes.
      await worker.close();
      await mailer.close?.();
      await producer.close();
      health.close();
      connection.disconnect();
      await db.$disconnect();
    },
  };
});
