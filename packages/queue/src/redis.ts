import { Cluster, Redis, type RedisOptions } from "ioredis";

export type RedisRole = "worker" | "producer";

/** A connection to Redis: one server, or a Redis Cluster (every command method is the same). */
export type RedisConnection = Redis | Cluster;

/** Where Redis is: REDIS_URL, and on a cluster its seed nodes (config: REDIS_CLUSTER_NODES). */
export interface RedisTarget {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: readonly string[] | undefined;
}

/**
 * Waits between reconnect attempts: 50 ms more per failed attempt, at most 500 ms. ioredis' default
 * grows to 2 s, which is how late a service could notice that Redis is back; a refused connect
 * costs next to nothing, so trying twice a second is cheap.
 */
export const reconnectDelayMs = (attempt: number): number => Math.min(attempt * 50, 500);

/**
 * Workers block on Redis and must wait through outages (`maxRetriesPerRequest: null`); the HTTP side
 * must fail fast so a request gets a 503 instead of hanging while Redis is away.
 */
function roleOptions(role: RedisRole): RedisOptions {
  return role === "worker"
    ? { maxRetriesPerRequest: null, enableReadyCheck: true, retryStrategy: reconnectDelayMs }
    : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, retryStrategy: reconnectDelayMs };
}

export function createRedis(target: string | RedisTarget, role: RedisRole): RedisConnection {
  const { REDIS_URL: url, REDIS_CLUSTER_NODES: nodes } = typeof target === "string" ? { REDIS_URL: target } : target;
  const options = roleOptions(role);
  if (!nodes || nodes.length === 0) return new Redis(url, options);
  // The URL lends what every node shares: password, user, TLS.
  const parsed = new URL(url);
  const shared: RedisOptions = {
    ...options,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === "rediss:" ? { tls: {} } : {}),
  };
  return new Cluster(
    nodes.map((n) => {
      const i = n.lastIndexOf(":");
      return { host: n.slice(0, i), port: Number(n.slice(i + 1)) };
    }),
    {
      redisOptions: shared,
      clusterRetryStrategy: reconnectDelayMs,
      enableReadyCheck: true,
      enableOfflineQueue: options.enableOfflineQueue ?? true,
      // A failover moves slots: follow MOVED/ASK and refresh the map instead of failing the command.
      maxRedirections: 16,
      retryDelayOnFailover: 100,
    },
  );
}

/** BullMQ loses jobs when Redis evicts keys; refuse to run on an evicting Redis (on a cluster: any master). */
export async function assertNoEviction(redis: RedisConnection): Promise<void> {
  const servers = redis instanceof Cluster ? redis.nodes("master") : [redis];
  for (const server of servers) {
    const reply = (await server.config("GET", "maxmemory-policy")) as unknown;
    const policy = Array.isArray(reply) ? String(reply[1]) : "unknown";
    if (policy !== "noeviction") {
      const where = redis instanceof Cluster ? ` on ${server.options.host}:${server.options.port}` : "";
      throw new Error(`Redis maxmemory-policy is "${policy}"${where}; BullMQ needs "noeviction" or jobs can be lost`);
    }
  }
}
