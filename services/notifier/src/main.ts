import { createMailer } from "@esign/mailer";
import { MailThrottle, startWorker, withMailThrottle } from "@esign/queue";
import { runWorkerService, type WorkerServiceOptions } from "@esign/runtime";
import { createStorage } from "@esign/storage";
import { createMailboxGateway } from "./channels/create-mailbox-gateway";
import type { NotifierContext } from "./context";
import { completedJob } from "./jobs/completed.job";
import { reminderJob } from "./jobs/reminder.job";
import { resendRequestJob, signingRequestJob } from "./jobs/signing-request.job";
import { subscriptionDisabledJob } from "./jobs/subscription-disabled.job";
import { userInvitationJob } from "./jobs/user-invitation.job";
import { subscriptionFailingJob } from "./jobs/subscription-failing.job";

const DEFAULT_HEALTH_PORT = 3002;

const options: WorkerServiceOptions = {
  defaultHealthPort: DEFAULT_HEALTH_PORT,
  // A notice holds a connection for its transaction while the mail goes out: one per job, plus
  // headroom for the readiness check.
  defaultPoolSize: (config) => config.WORKER_CONCURRENCY + 2,
};

// Email (SMTP) and e-Boks messages, one job per kind of message on the `notifications` queue. The
// database, Redis, producer, health server and ordered shutdown come from runWorkerService
// (packages/runtime); here only what is this service's own.
runWorkerService("notifier", options, async ({ config, logger, db, redis, producer, workerOptions }) => {
  const mailer = createMailer(config, logger);
  const mailbox = createMailboxGateway(config, logger);
  const storage = await createStorage(config, logger);
  const mailThrottle = new MailThrottle(redis, config.QUEUE_PREFIX, config.MAILS_PER_CUSTOMER_PER_MINUTE);
  // Reminders are queued from here (`producer`), on the notifications queue this process also works.
  const ctx: NotifierContext = { config, logger, db, mailer, mailbox, producer, storage, mailThrottle };

  const worker = startWorker(
    "notifications",
    {
      "subscription-disabled": (data) => subscriptionDisabledJob(ctx, data),
      "subscription-failing": (data) => subscriptionFailingJob(ctx, data),
      "signing-request": (data, job) => withMailThrottle(job, () => signingRequestJob(ctx, data)),
      "resend-request": (data, job) => withMailThrottle(job, () => resendRequestJob(ctx, data)),
      reminder: (data, job) => withMailThrottle(job, () => reminderJob(ctx, data)),
      completed: (data, job) => withMailThrottle(job, () => completedJob(ctx, data)),
      "user-invitation": (data) => userInvitationJob(ctx, data),
    },
    workerOptions,
  );
  // The worker first: a job in flight finishes its mail and its commit before the mailer closes.
  return { workers: [worker], resources: [mailer] };
});
