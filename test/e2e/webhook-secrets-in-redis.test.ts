import { redisValues } from "../support/redis-values";
import { startReceiver, type Receiver } from "../support/receiver";
import { TEST_ENCRYPTION_KEY } from "../support/api";
import { createWorld, eventually, type World } from "../support/webhook-world";

/*
 * "No subscription secret or signing key in Redis job data": with deliveries queued and retries
 * waiting as delayed jobs, nothing under the run's Redis prefix holds a secret or a signature.
 */
let world: World;
let receiver: Receiver;

beforeAll(async () => {
  world = await createWorld("wh_secrets");
  receiver = await startReceiver();
  await world.startDispatcher({ WEBHOOK_LADDER_SCALE: "1", OUTBOX_POLL_INTERVAL_MS: "200" });
});

afterAll(async () => {
  await world?.close();
  await receiver?.close();
});

it("keeps subscription secrets, their encrypted form and signatures out of Redis", async () => {
  receiver.on("/fails", () => ({ status: 500 }));
  const customer = await world.customer();
  const sub = await world.subscribe(customer, receiver.url("/fails"));
  const eventId = await world.emit(customer.customerId);
  // The first attempt failed and the retry waits as a delayed job (5 s at scale 1).
  await eventually(async () => (await world.attempts({ eventId })).length >= 1, 20_000, "first attempt");
  const signature = String(receiver.requests("/fails")[0]?.headers["x-event-signature"] ?? "");
  expect(signature).toMatch(/^t=\d+,h=.+,v1=[0-9a-f]{64}$/);
  const secretEnc = (await world.db.webhookSubscription.findUniqueOrThrow({ where: { id: sub.id } })).secretEnc;

  const values = await redisValues(world.redisUrl, world.queuePrefix);
  expect(values.some((v) => v.includes(eventId))).toBe(true); // the scan does see the queued work
  for (const needle of [sub.secret, secretEnc, signature, signature.split("v1=")[1]!, TEST_ENCRYPTION_KEY]) {
    expect(values.filter((v) => v.includes(needle))).toEqual([]);
  }
});
