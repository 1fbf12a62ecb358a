import type { Db } from "@esign/db";
import type { Logger } from "@esign/logger";
import { MailThrottle, Producer, createRedis, sweepOnReconnect, type RecoveryMetrics } from "@esign/queue";
import { OutboxRelay } from "./outbox-relay";

export interface OutboxRelaySettings {
  DATABASE_URL: string;
  /** The relay's LISTEN needs a session: a direct connection when DATABASE_URL is a transaction pooler. */
  DATABASE_SESSION_URL?: string | undefined;
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: readonly string[] | undefined;
  QUEUE_PREFIX: string;
  OUTBOX_POLL_INTERVAL_MS: number;
  MAILS_PER_CUSTOMER_PER_MINUTE: number;
}

export interface RunningOutboxRelay {
  relay: OutboxRelay;
  close(): Promise<void>;
}

/**
 * Starts the outbox relay of a service: its own fail-fast Redis connection (while Redis is away a
 * drain must fail at once, never hold claimed rows in an open transaction), its LISTEN session, its
 * poll, and a drain as soon as that connection is ready again after an outage (the events written
 * while Redis was away are relayed at once, not at the next poll).
 */
export function startOutboxRelay(config: OutboxRelaySettings, db: Db, logger: Logger, metrics?: RecoveryMetrics): RunningOutboxRelay {
  const connection = createRedis(config, "producer");
  const producer = new Producer(connection, config.QUEUE_PREFIX);
  const relay = new OutboxRelay({
    db,
    databaseUrl: config.DATABASE_SESSION_URL ?? config.DATABASE_URL,
    producer,
    logger,
    pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS,
    mailThrottle: new MailThrottle(connection, config.QUEUE_PREFIX, config.MAILS_PER_CUSTOMER_PER_MINUTE),
    metrics,
  });
  relay.start();
  const onReconnect = sweepOnReconnect({ connection, name: "outbox", logger, metrics, sweep: () => relay.drainNow() });
  return {
    relay,
    async close() {
      await onReconnect.stop();
      await relay.stop();
      await producer.close();
      connection.disconnect();
    },
  };
}
