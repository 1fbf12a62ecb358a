import { Redis } from "ioredis";
import { Producer } from "@esign/queue";
import { dispatchJobId } from "@esign/webhooks";
import { drainOutboxBatch } from "../src/drain-outbox";
import { createWorld, type World } from "../../../test/support/webhook-world";

// No dispatcher runs on this world: every drain here is the test's own.
let world: World;
beforeAll(async () => {
  world = await createWorld("drain_outbox");
});
afterAll(async () => world?.close());

const relayedAt = async (ids: string[]) => {
  const rows = await world.db.event.findMany({ where: { id: { in: ids } }, orderBy: { seq: "asc" } });
  return rows.map((r) => r.relayedAt);
};

describe("drainOutboxBatch", () => {
  it("relays the oldest events first, a batch at a time, with one dispatch job per batch for the wanted ones", async () => {
    const wantedCustomer = await world.customer();
    await world.subscribe(wantedCustomer, "http://127.0.0.1:9/never-called");
    const unwantedCustomer = await world.customer();
    const wanted = await world.emitMany(wantedCustomer.customerId, 3);
    const unwanted = await world.emitMany(unwantedCustomer.customerId, 2);
    const producer = world.producer();

    // The first batch: the three wanted events (oldest), in outbox order, in one job.
    expect(await drainOutboxBatch(world.db, producer, 3)).toBe(3);
    expect((await relayedAt(wanted)).every((at) => at !== null)).toBe(true);
    expect((await relayedAt(unwanted)).every((at) => at === null)).toBe(true);
    const job = await producer.queue("events").getJob(dispatchJobId(wanted));
    expect(job?.data).toEqual({ eventIds: wanted });

    // The second: the two no subscription wants, relayed without a dispatch job.
    expect(await drainOutboxBatch(world.db, producer, 3)).toBe(2);
    expect((await relayedAt(unwanted)).every((at) => at !== null)).toBe(true);
    for (const id of unwanted) expect(await world.dispatchJobOf(id)).toBeUndefined();
    expect(await drainOutboxBatch(world.db, producer, 3)).toBe(0);
  });

  it("leaves every claimed event unrelayed when Redis refuses the jobs", async () => {
    const customer = await world.customer();
    await world.subscribe(customer, "http://127.0.0.1:9/never-called");
    const ids = await world.emitMany(customer.customerId, 2);
    // A connection that is gone, with no offline queue and no reconnect: the enqueue fails at once.
    const deadRedis = new Redis(world.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    deadRedis.on("error", () => undefined);
    await new Promise((resolve) => deadRedis.once("ready", resolve));
    const deadProducer = new Producer(deadRedis, world.queuePrefix);
    await deadProducer.queue("events").waitUntilReady();
    deadRedis.disconnect();
    await expect(drainOutboxBatch(world.db, deadProducer, 10)).rejects.toThrow();
    // The claim marked them relayed inside the transaction; the rollback undid it.
    expect(await relayedAt(ids)).toEqual([null, null]);
    expect(await drainOutboxBatch(world.db, world.producer(), 10)).toBe(2);
    expect((await world.dispatchJobOf(ids[0]!))?.data).toEqual({ eventIds: ids });
  });
});
