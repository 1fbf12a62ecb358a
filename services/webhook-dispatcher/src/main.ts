import { startOutboxRelay } from "@esign/outbox-relay";
import { startWorker, sweepOnReconnect } from "@esign/queue";
import { recoveryMetrics, runWorkerService } from "@esign/runtime";
import type { DispatcherContext } from "./context";
import { WebhookSender } from "./domain/send-webhook";
import { RedisThrottle } from "./domain/throttle";
import { deliverWebhookJob } from "./jobs/deliver-webhook.job";
import { dispatchEventJob } from "./jobs/dispatch-event.job";
import { recoverJob } from "./jobs/recover.job";
import { startSweepTimer } from "./sweep/sweep-timer";
import { DEFAULT_SWEEP_OPTIONS, RECONNECT_SWEEP_OPTIONS, observeWebhookBacklog, sweepWebhooks } from "./sweep/sweep-webhooks";

const DEFAULT_HEALTH_PORT = 3003;

// The database (deliveries hold no connection while the POST is in flight, so the default pool serves
// many of them), Redis, producer, health server and ordered shutdown come from runWorkerService
// (packages/runtime); here only what is this service's own.
runWorkerService("webhook-dispatcher", { defaultHealthPort: DEFAULT_HEALTH_PORT }, async (boot) => {
  const { config, logger, db, producer, workerOptions } = boot;
  // Two producers on purpose: job handlers wait through a Redis outage (`producer`: their work is
  // done and recorded, the enqueue should land once Redis is back), while the sweeper fails fast: a
  // sweep stuck on Redis would only delay shutdown; the next one retries anyway.
  const failFastConnection = boot.openRedis("producer");
  const failFastProducer = boot.openProducer(failFastConnection);
  const sender = new WebhookSender({
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    allowedNetworks: config.WEBHOOK_ALLOWED_PRIVATE_NETWORKS,
    maxInFlight: config.WEBHOOK_CONCURRENCY,
  });
  // Throttle turns on the fail-fast connection: a turn that cannot be reserved fails its job (retried,
  // or found by the sweeper) rather than holding it through a Redis outage.
  const throttle = new RedisThrottle(failFastConnection, config.QUEUE_PREFIX);
  const ctx: DispatcherContext = { config, logger, db, producer, sender, throttle };

  // Both mostly wait on the network (an event job makes its first attempts, each at most 200 ms + 1 s),
  // hence the higher concurrency; the sender keeps the requests in flight to WEBHOOK_CONCURRENCY.
  const eventsWorker = startWorker(
    "events",
    { dispatch: (data) => dispatchEventJob(ctx, data) },
    { ...workerOptions, concurrency: config.WEBHOOK_CONCURRENCY },
  );
  const webhooksWorker = startWorker(
    "webhooks",
    { deliver: (data) => deliverWebhookJob(ctx, data), recover: (data) => recoverJob(ctx, data) },
    { ...workerOptions, concurrency: config.WEBHOOK_CONCURRENCY },
  );

  const recovery = recoveryMetrics();
  // The outbox relay runs in the casefile-worker (docs/architecture.md), so that stopping webhook
  // delivery cannot stop signing; here only when OUTBOX_RELAY_SERVICES names it (a dispatcher without a
  // casefile-worker, or webhooks that must flow while the casefile-worker restarts).
  const relay = config.OUTBOX_RELAY_SERVICES.includes("webhook-dispatcher") ? startOutboxRelay(config, db, logger, recovery) : undefined;
  // SWEEP_INTERVAL_MS (15 s), the first a third of it after the start: soon after a crash.
  const failingAfterMs = config.WEBHOOK_FAILING_AFTER_MS;
  const sweeper = startSweepTimer(() => sweepWebhooks(db, failFastProducer, logger, { ...DEFAULT_SWEEP_OPTIONS, failingAfterMs }), {
    intervalMs: config.SWEEP_INTERVAL_MS,
    firstDelayMs: Math.round(config.SWEEP_INTERVAL_MS / 3),
    logger,
  });
  // When Redis answers again: due retries and notifications it missed are enqueued without the
  // periodic sweep's 30 s grace (the relay drains the outbox on its own reconnect).
  const sweepAfterReconnect = sweepOnReconnect({
    connection: failFastConnection,
    name: "webhook_sweep",
    logger,
    metrics: recovery,
    sweep: async () => {
      const r = await sweepWebhooks(db, failFastProducer, logger, { ...RECONNECT_SWEEP_OPTIONS, failingAfterMs });
      return r.deliveriesRequeued + r.notificationsRequeued + r.recoverTasksRequeued + r.heldReleased;
    },
  });

  observeWebhookBacklog(db, logger);
  logger.info("dispatcher ready", {
    outboxRelay: relay !== undefined,
    ladderScale: config.WEBHOOK_LADDER_SCALE,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    concurrency: config.WEBHOOK_CONCURRENCY,
  });
  // Stop taking work first; in-flight attempts finish (at most ~1.2 s) and are recorded; then the sender.
  return { feeders: [sweepAfterReconnect, relay, sweeper], workers: [eventsWorker, webhooksWorker], resources: [sender] };
});
