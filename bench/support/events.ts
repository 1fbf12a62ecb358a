import { randomBytes, randomUUID } from "node:crypto";
import type { Pool as PgPool, PoolConfig } from "pg";
import { encryptSecret, OUTBOX_CHANNEL } from "@esign/db";
import { requireFrom } from "./workspace-require";

const { Pool } = requireFrom<{ Pool: new (c: PoolConfig) => PgPool }>("packages/db", "pg");

/** A plain pg pool on a world's database, for the bench's own bulk writes and emits. */
export function openSql(databaseUrl: string, connections = 8): PgPool {
  return new Pool({ connectionString: databaseUrl, max: connections });
}

/** An event type with no internal reaction (event routes), so only the webhook fan-out runs for it. */
export const BENCH_EVENT_TYPE = "sign.casefile.expired";

/**
 * Writes outbox events the way services do - INSERT into "Event" and pg_notify on the outbox
 * channel, in one transaction - as one simple-protocol round trip, so the emitter stays cheap next
 * to the system under test. Resolves with the commit time (epoch ms, when COMMIT returned).
 */
export class EventEmitter {
  private readonly pool: PgPool;

  constructor(databaseUrl: string, connections = 8) {
    this.pool = new Pool({ connectionString: databaseUrl, max: connections });
  }

  async emit(customerId: number, payload: object = { id: 1, status: 7 }): Promise<{ id: string; committedAt: number }> {
    const id = randomUUID();
    // Every value is generated here (uuid, integer, constant strings, JSON we built): safe to inline.
    const json = JSON.stringify(payload).replace(/'/g, "''");
    await this.pool.query(
      `BEGIN; INSERT INTO "Event" (id, "customerId", topic, "eventType", payload) VALUES ('${id}', ${Math.trunc(customerId)}, 'casefile', '${BENCH_EVENT_TYPE}', '${json}'::jsonb); SELECT pg_notify('${OUTBOX_CHANNEL}', ''); COMMIT;`,
    );
    return { id, committedAt: performance.timeOrigin + performance.now() };
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

export interface BenchSubscription {
  id: string;
  url: string;
  path: string;
  secret: string;
}

/**
 * Subscriptions written straight to the database (the API would refuse http://127.0.0.1 in
 * production), in bulk: one statement per 5,000 rows.
 */
export async function createSubscriptions(
  databaseUrl: string,
  customer: { customerId: number; userId: number },
  encryptionKey: string,
  urls: { url: string; path: string }[],
): Promise<BenchSubscription[]> {
  const subs = urls.map(({ url, path }) => ({ id: randomUUID(), url, path, secret: `whsec_${randomBytes(32).toString("base64url")}` }));
  const sql = openSql(databaseUrl, 1);
  try {
    for (let i = 0; i < subs.length; i += 5000) {
      const chunk = subs.slice(i, i + 5000);
      await sql.query(
        `INSERT INTO "WebhookSubscription" (id, "customerId", "createdByUserId", endpoint, "eventTypes", "secretEnc", "updatedAt")
         SELECT id, $1, $2, endpoint, ARRAY[$3::text], "secretEnc", now() FROM unnest($4::uuid[], $5::text[], $6::text[]) AS t(id, endpoint, "secretEnc")`,
        [
          customer.customerId,
          customer.userId,
          BENCH_EVENT_TYPE,
          chunk.map((s) => s.id),
          chunk.map((s) => s.url),
          chunk.map((s) => encryptSecret(s.secret, encryptionKey)),
        ],
      );
    }
  } finally {
    await sql.end();
  }
  return subs;
}
