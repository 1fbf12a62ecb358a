import { Redis } from "ioredis";
import { createPrisma, sqlPool } from "@esign/db";
import { Producer, createRedis } from "@esign/queue";
import { unavailableDependency } from "../src";
import { freePort } from "../../../test/support/ports";
import { startRedisServer } from "../../../test/support/redis-server";

/*
 * The errors are the real ones: thrown by pg, Prisma's pg adapter, ioredis and BullMQ against a port
 * nobody listens on, a session PostgreSQL terminates, and ordinary failures that must not be taken
 * for an outage.
 */

const caught = async (fn: () => Promise<unknown>): Promise<unknown> => {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
};

const databaseUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

describe("unavailableDependency", () => {
  let closedPort: number;
  beforeAll(async () => {
    closedPort = await freePort();
  });

  it("names PostgreSQL for a refused connect, through pg and through Prisma", async () => {
    const db = createPrisma(`postgresql://postgres@127.0.0.1:${closedPort}/x`, 1);
    try {
      // pg's own socket error (the hot paths' plain SQL), Prisma's P1001 from a model query and its
      // P2010 (with the adapter's DatabaseNotReachable) from a raw one.
      expect(unavailableDependency(await caught(() => sqlPool(db).query("SELECT 1")))).toBe("postgres");
      expect(unavailableDependency(await caught(() => db.customer.findFirst()))).toBe("postgres");
      expect(unavailableDependency(await caught(() => db.$queryRaw`SELECT 1`))).toBe("postgres");
    } finally {
      await db.$disconnect();
    }
  });

  it("names PostgreSQL for a session the server terminates (57P01, as on a restart)", async () => {
    const db = createPrisma(databaseUrl, 1);
    try {
      const err = await caught(() => sqlPool(db).query("SELECT pg_terminate_backend(pg_backend_pid())"));
      expect((err as { code?: string }).code).toBe("57P01");
      expect(unavailableDependency(err)).toBe("postgres");
      expect(unavailableDependency(await caught(() => db.$queryRaw`SELECT pg_terminate_backend(pg_backend_pid())`))).toBe("postgres");
    } finally {
      await db.$disconnect();
    }
  });

  it("names PostgreSQL for an interactive transaction whose session is terminated before its COMMIT (as on a restart)", async () => {
    const db = createPrisma(databaseUrl, 1);
    const other = createPrisma(databaseUrl, 1);
    try {
      const err = await caught(() =>
        db.$transaction(async (tx) => {
          const rows = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
          await other.$queryRaw`SELECT pg_terminate_backend(${rows[0]!.pid}::int)`;
        }),
      );
      expect(unavailableDependency(err)).toBe("postgres");
    } finally {
      await db.$disconnect();
      await other.$disconnect();
    }
  });

  it("names PostgreSQL for a transaction that could not start in time (no connection: as through PgBouncer while PostgreSQL restarts)", async () => {
    const db = createPrisma(databaseUrl, 1);
    try {
      // The one connection is held until the second transaction has given up. Wait for the holder to be
      // inside rather than a fixed pause: on a loaded machine its first query took longer than 100 ms,
      // the second transaction got the connection, and release() (still the no-op) left the holder
      // waiting for ever (a 60 s time-out in a local run, 2026-11-27).
      let release: () => void = () => undefined;
      let entered: () => void = () => undefined;
      const inside = new Promise<void>((r) => (entered = r));
      const held = db.$transaction(
        async (tx) => {
          await tx.customer.findFirst();
          const done = new Promise<void>((r) => (release = r));
          entered();
          await done;
        },
        { timeout: 30_000 },
      );
      await inside;
      const err = await caught(() => db.$transaction(async (tx) => tx.customer.findFirst(), { maxWait: 200 }));
      release();
      await held;
      expect((err as { code?: string }).code).toBe("P2028");
      expect(unavailableDependency(err)).toBe("postgres");
    } finally {
      await db.$disconnect();
    }
  });

  it("names Redis for a fail-fast enqueue and for a command that ran out of retries", async () => {
    // A connection that was ready and lost its server, as the gateway's is during a Redis restart.
    const redis = await startRedisServer();
    const failFast = createRedis(redis.url, "producer");
    const retrying = new Redis(redis.url, { maxRetriesPerRequest: 1, retryStrategy: () => 10 });
    for (const c of [failFast, retrying]) c.on("error", () => undefined);
    const producer = new Producer(failFast, "unavailable-test");
    try {
      await producer.enqueue("casefile", "purge-jobs", {});
      await retrying.ping();
      await redis.shutdown();
      expect(unavailableDependency(await caught(() => producer.enqueue("casefile", "purge-jobs", {})))).toBe("redis");
      const err = await caught(() => retrying.ping());
      expect((err as Error).name).toBe("MaxRetriesPerRequestError");
      expect(unavailableDependency(err)).toBe("redis");
    } finally {
      // Back up first: ioredis disconnecting a socket that is already closed arms a 2 s timer that
      // would keep Jest waiting after the tests.
      if (!redis.isRunning()) await redis.restart();
      await Promise.all([failFast, retrying].map((c) => (c.status === "ready" ? undefined : new Promise((r) => c.once("ready", r)))));
      await producer.close();
      failFast.disconnect();
      retrying.disconnect();
      await redis.stop();
    }
  });

  it("leaves every other failure alone", async () => {
    const db = createPrisma(databaseUrl, 1);
    try {
      expect(unavailableDependency(await caught(() => db.$queryRawUnsafe("SELEC 1")))).toBeUndefined();
      expect(unavailableDependency(await caught(() => db.$queryRaw`SELECT 1/0`))).toBeUndefined();
    } finally {
      await db.$disconnect();
    }
    expect(unavailableDependency(new Error("boom"))).toBeUndefined();
    expect(unavailableDependency(undefined)).toBeUndefined();
    expect(unavailableDependency("Connection is closed.")).toBeUndefined();
    // A domain error about another server (a mail server refusing) keeps its socket error as its
    // cause: that cause is not read, so SMTP trouble is not taken for PostgreSQL being away.
    const smtpRefused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), { code: "ECONNREFUSED", syscall: "connect", errno: -111 });
    expect(unavailableDependency(new Error("mail not delivered (transient, connection)", { cause: smtpRefused }))).toBeUndefined();
  });
});
