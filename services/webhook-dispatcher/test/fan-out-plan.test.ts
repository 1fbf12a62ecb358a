import { keyList, run } from "@esign/db";
import { DELIVERY_STATE } from "@esign/webhooks";
import { fanOutAndLoadSql } from "../src/domain/attempt-rows.sql";
import { planCounts } from "../../../test/support/plan-cache";
import { createWorld, type World } from "../../../test/support/webhook-world";

/*
 * The fan-out runs once per dispatch job (a batch of events): its plan must be kept, not made again at
 * every call (309 us a call over a dispatch bench run with its ids as one uuid[] parameter), and the
 * padding of its id list (repeats of the last id) must neither double a delivery nor a row.
 */

let world: World;
beforeAll(async () => {
  world = await createWorld("fan_out_plan");
});
afterAll(async () => world?.close());

it("fans a batch out once per matching subscription whatever the padding, with a plan PostgreSQL keeps", async () => {
  const customer = await world.customer();
  await world.subscribe(customer, "http://127.0.0.1:9/a");
  await world.subscribe(customer, "http://127.0.0.1:9/b");
  const ids = await world.emitMany(customer.customerId, 3);
  const args = (n: number) => ({ events: keyList(ids.slice(0, n)), pendingState: DELIVERY_STATE.pending, now: new Date() });

  let first: unknown[] = [];
  const plans = await planCounts(world.databaseUrl, 'with "e" as (select * from "Event"', async (pool) => {
    first = await run(pool, fanOutAndLoadSql, args(3));
    for (let i = 0; i < 7; i++) await run(pool, fanOutAndLoadSql, args(1 + (i % 3)));
  });
  expect(plans).toEqual([{ generic_plans: "3", custom_plans: "5" }]);
  // Three events (the last one repeated in the list) x two subscriptions: six deliveries, once each.
  expect(first).toHaveLength(6);
  expect(await world.db.webhookDelivery.count({ where: { eventId: { in: ids } } })).toBe(6);
});
