import { Redis } from "ioredis";
import { Client } from "pg";
import { emitEvent, notifyOutboxIfAnyUnrelayed, OUTBOX_CHANNEL, qb, runCompiled, serializedEventInsert, serializeEvents } from "@esign/db";
import { createRedis, MailThrottle, Producer } from "@esign/queue";
import { signerEvent } from "@esign/schema";
import { dispatchJobId } from "@esign/webhooks";
import { drainOutboxBatch, publishCommittedEvents } from "../src/drain-outbox";
import { claimOutboxBatchSql, markEventsRelayedSql, markRelayedArgs, relayedUnlessSubscribed } from "../src/drain-outbox.sql";
import { run, sqlPool } from "@esign/db";
import { planCounts } from "../../../test/support/plan-cache";
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

  it("adds a held-back customer's signing requests delayed to their places in its mail line, and others' at once", async () => {
    const held = await world.customer();
    const free = await world.customer();
    const redis = createRedis(world.redisUrl, "worker");
    const throttle = new MailThrottle(redis, world.queuePrefix, 2);
    await throttle.take(held.customerId);
    await throttle.take(held.customerId);
    const request = (customerId: number, signerId: number) =>
      world.db.$transaction((tx) => emitEvent(tx, signerEvent({ id: 1, customerId }, 1, signerId, "sign.signer.requestActivated")));
    const heldIds = [await request(held.customerId, 101), await request(held.customerId, 102)];
    const freeId = await request(free.customerId, 201);
    const producer = world.producer();
    while ((await drainOutboxBatch(world.db, producer, 10, throttle)) > 0);

    const notifications = producer.queue("notifications");
    const [first, second] = await Promise.all(heldIds.map((id) => notifications.getJob(`request-${id}`)));
    // Due at the line's places: the window's end, then 30 s (60 s / 2) later; not fetched before.
    expect(await first?.getState()).toBe("delayed");
    expect(first?.opts.delay).toBeGreaterThan(50_000);
    expect(Math.abs((second?.opts.delay ?? 0) - (first?.opts.delay ?? 0) - 30_000)).toBeLessThanOrEqual(50);
    const other = await notifications.getJob(`request-${freeId}`);
    expect(other?.opts.delay ?? 0).toBe(0);
    expect(await other?.getState()).toBe("waiting");
    redis.disconnect();
  });

  it("a held-back customer's requests published by their writer and relayed again by the poll keep their places: the line does not grow", async () => {
    const held = await world.customer();
    const redis = createRedis(world.redisUrl, "worker");
    const throttle = new MailThrottle(redis, world.queuePrefix, 2);
    await throttle.take(held.customerId);
    await throttle.take(held.customerId);
    const payloads = [301, 302].map((signerId) => signerEvent({ id: 1, customerId: held.customerId }, 1, signerId, "sign.signer.requestActivated"));
    const ids = await Promise.all(payloads.map((p) => world.db.$transaction((tx) => emitEvent(tx, p))));
    const lineLength = async () => Number(await redis.hget(`${world.queuePrefix}:rl:mails-line:{${held.customerId}}`, "count"));
    const producer = world.producer();
    // The poll claims the events between the writer's commit and its mark (the race of the README):
    // both publish them. The writer's own jobs come first here; the relay's drain adds the same ids.
    const own = ids.map((id, i) => ({
      id,
      customerId: held.customerId,
      eventType: payloads[i]!.eventType,
      payload: payloads[i]!.payload,
      hasSubscribers: false,
    }));
    await publishCommittedEvents(world.db, producer, own, throttle);
    expect(await lineLength()).toBe(2);
    await world.db.event.updateMany({ where: { id: { in: ids } }, data: { relayedAt: null } });
    while ((await drainOutboxBatch(world.db, producer, 10, throttle)) > 0);
    expect(await lineLength()).toBe(2);
    // A new request of the customer still takes the line's next place, the third.
    const [third] = await throttle.placesFor(held.customerId, 1, true, ["request-new"]);
    expect(await lineLength()).toBe(3);
    const second = await producer.queue("notifications").getJob(`request-${ids[1]}`);
    expect(third! - (second?.opts.delay ?? 0)).toBeGreaterThan(25_000);
    redis.disconnect();
  });

  it("claims through the partial index of the unrelayed events and looks the claimed ones up by key (no index or scan of every event)", async () => {
    const claim = claimOutboxBatchSql.compile({ batchSize: 100 });
    // The planner's choice on a small table may be a sequential scan; with it off, the only way in.
    const plan = await world.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(`EXPLAIN (FORMAT JSON) ${claim.sql}`, ...claim.parameters);
      return JSON.stringify(rows[0]?.["QUERY PLAN"]);
    });
    expect(plan).toContain('"Index Name":"Event_unrelayed_seq_idx"');
    // The claimed ids are looked up by key, after the claim: no join, which the planner may make a
    // hash join over a sequential scan of every event (and keep so in a prepared statement).
    expect(plan).toMatch(/"Index Name":"Event_pkey"[^}]*"Index Cond":"\(id = ANY/);
    expect(plan).not.toContain('"Join Type"');
    const indexes = await world.db.$queryRawUnsafe<{ indexname: string }[]>(`SELECT indexname FROM pg_indexes WHERE tablename = 'Event'`);
    expect(indexes.map((i) => i.indexname)).not.toContain("Event_relayedAt_occurredAt_idx");
  });

  it("marks published events by key alone, in the plan a prepared statement keeps (not through the unrelayed events' index, which holds every event marked since the last vacuum)", async () => {
    const mark = markEventsRelayedSql.compile(markRelayedArgs(["00000000-0000-4000-8000-000000000000"]));
    const plan = await world.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      // node-postgres names its statements: after five runs PostgreSQL keeps a generic plan.
      await tx.$executeRawUnsafe("SET LOCAL plan_cache_mode = force_generic_plan");
      await tx.$executeRawUnsafe(`PREPARE mark_plan_test AS ${mark.sql}`);
      const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(
        `EXPLAIN (FORMAT JSON) EXECUTE mark_plan_test(${mark.parameters.map((p) => `'${String(p)}'`).join(", ")})`,
      );
      await tx.$executeRawUnsafe("DEALLOCATE mark_plan_test");
      return JSON.stringify(rows[0]?.["QUERY PLAN"]);
    });
    expect(plan).toMatch(/"Index Name":"Event_pkey"[^}]*"Index Cond":"\(id = ANY/);
    expect(plan).not.toContain("Event_unrelayed_seq_idx");
  });

  it("marks with a plan PostgreSQL keeps: after five calls of a shape, no call is planned again", async () => {
    const customer = await world.customer();
    const ids = await world.emitMany(customer.customerId, 3);
    const plans = await planCounts(world.databaseUrl, 'update "Event" set "relayedAt"', async (pool) => {
      for (let i = 0; i < 8; i++) await run(pool, markEventsRelayedSql, markRelayedArgs(ids.slice(0, 1 + (i % 3))));
    });
    // One, two and three ids share the shape of four: one statement, planned five times, then kept.
    expect(plans).toEqual([{ generic_plans: "3", custom_plans: "5" }]);
    expect((await relayedAt(ids)).every((at) => at !== null)).toBe(true);
  });

  it("marks published events relayed and leaves the time of one a relay claimed first", async () => {
    const customer = await world.customer();
    const [claimedFirst, published] = await world.emitMany(customer.customerId, 2);
    const relayTime = new Date("2026-01-02T03:04:05.000Z");
    await world.db.event.update({ where: { id: claimedFirst! }, data: { relayedAt: relayTime } });
    await run(sqlPool(world.db), markEventsRelayedSql, markRelayedArgs([claimedFirst!, published!]));
    const [first, second] = await relayedAt([claimedFirst!, published!]);
    expect(first?.toISOString()).toBe(relayTime.toISOString());
    expect(second).toBeInstanceOf(Date);
    expect(second!.getTime()).toBeGreaterThan(relayTime.getTime());
  });
});

describe("relayedUnlessSubscribed", () => {
  // A writer's insert of events without internal reactions (the notifier's signer events): relayed at
  // birth, and no NOTIFY, when no subscription wants them; else unrelayed with the NOTIFY, for the relay.
  let listener: Client;
  const notified: string[] = [];

  beforeAll(async () => {
    listener = new Client({ connectionString: world.databaseUrl });
    await listener.connect();
    listener.on("notification", (n) => notified.push(n.channel));
    await listener.query(`LISTEN "${OUTBOX_CHANNEL}"`);
  });
  afterAll(async () => listener?.end());

  /** Inserts the customer's requestSent event as the notifier's statement does; answers its id and the statement's `notified`. */
  const insert = async (customerId: number) => {
    const [event] = serializeEvents([signerEvent({ id: 5, customerId }, 1, 77, "sign.signer.requestSent")]);
    const statement = qb
      .with("events", () => serializedEventInsert([event!], undefined, relayedUnlessSubscribed))
      .selectNoFrom(notifyOutboxIfAnyUnrelayed("events").as("notified"));
    const [row] = await runCompiled<{ notified: string | null }>(sqlPool(world.db), statement.compile());
    // Notifications are delivered at commit; the listener's next round trip brings any sent before it.
    await listener.query("SELECT 1");
    return { id: event!.id, notified: row?.notified };
  };

  it("writes an event no subscription wants relayed, and sends no NOTIFY", async () => {
    const customer = await world.customer();
    await world.subscribe(customer, "http://127.0.0.1:9/never-called", ["sign.signer.signed"]);
    notified.length = 0;
    const { id, notified: sent } = await insert(customer.customerId);
    expect(sent).toBeNull();
    expect(notified).toEqual([]);
    expect((await relayedAt([id]))[0]).toBeInstanceOf(Date);
    expect(await drainOutboxBatch(world.db, world.producer(), 10)).toBe(0);
  });

  it("leaves an event a subscription wants unrelayed, NOTIFYs, and the relay fans it out", async () => {
    const customer = await world.customer();
    await world.subscribe(customer, "http://127.0.0.1:9/never-called", ["sign.signer.requestSent"]);
    notified.length = 0;
    const { id, notified: sent } = await insert(customer.customerId);
    expect(sent).toBe("");
    expect(notified).toEqual([OUTBOX_CHANNEL]);
    expect(await relayedAt([id])).toEqual([null]);
    expect(await drainOutboxBatch(world.db, world.producer(), 10)).toBe(1);
    expect((await world.dispatchJobOf(id))?.data).toEqual({ eventIds: [id] });
  });
});
