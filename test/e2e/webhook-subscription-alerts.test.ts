import { startReceiver, type Receiver } from "../support/receiver";
import { startService, type ServiceProcess } from "../support/services";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { createWorld, eventually, type World } from "../support/webhook-world";

/*
 * Operational events (issue 29): a subscription whose deliveries keep failing gets the
 * `webhook.subscription.failing` event and mail first (here after WEBHOOK_FAILING_AFTER_MS = 1 s,
 * a day by default), then, when the ladder gives up, `webhook.subscription.disabled` and the mail that
 * says why and how to re-enable. Both events go to another subscription of the account that holds
 * them. The ladder is compressed (1 h = 400 ms) as in webhook-delivery-ladder.test.ts.
 */

const HOUR_MS = 400;

let receiver: Receiver;
let smtp: SmtpSink;
let notifier: ServiceProcess;
let world: World;

beforeAll(async () => {
  [receiver, smtp, world] = await Promise.all([startReceiver(), startSmtpSink(), createWorld("wh_alerts")]);
  [, notifier] = await Promise.all([
    world.startDispatcher({ WEBHOOK_LADDER_SCALE: String(HOUR_MS / 3_600_000), WEBHOOK_FAILING_AFTER_MS: "1000", SWEEP_INTERVAL_MS: "1000" }),
    startService("notifier", world.env({ SMTP_URL: smtp.url })),
  ]);
}, 120_000);

afterAll(async () => {
  await notifier?.stop();
  await world?.close();
  await smtp?.stop();
  await receiver?.close();
});

interface AlertBody {
  topic: string;
  eventType: string;
  payload: { subscriptionId: string; endpoint: string; failingSince: string | null; disabledAt: string | null };
}

describe("a subscription whose deliveries keep failing", () => {
  it("is announced as failing (event and mail) before it is disabled (event and mail saying why and how to re-enable)", async () => {
    const customer = await world.customer();
    const down = await world.subscribe(customer, receiver.url("/always-down"));
    await world.subscribe(customer, receiver.url("/watcher"), ["webhook.subscription.failing", "webhook.subscription.disabled"]);
    receiver.on("/always-down", () => ({ status: 500 }));

    await world.emit(customer.customerId);
    const alerts = await receiver.waitFor("/watcher", 2, 60_000);
    const bodies = alerts.map((r) => JSON.parse(r.rawBody) as AlertBody);
    expect(alerts.map((r) => r.headers["x-event-type"])).toEqual(["webhook.subscription.failing", "webhook.subscription.disabled"]);
    expect(bodies.map((b) => [b.topic, b.eventType])).toEqual([
      ["subscription", "failing"],
      ["subscription", "disabled"],
    ]);
    expect(bodies[0]!.payload).toMatchObject({ subscriptionId: down.id, endpoint: receiver.url("/always-down"), disabledAt: null });
    expect(bodies[0]!.payload.failingSince).not.toBeNull();
    expect(bodies[1]!.payload).toMatchObject({ subscriptionId: down.id, failingSince: null });
    const sub = await world.db.webhookSubscription.findUniqueOrThrow({ where: { id: down.id } });
    expect(sub.isActive).toBe(false);
    expect(sub.disabledAt?.toISOString()).toBe(bodies[1]!.payload.disabledAt);
    // Warned before the disable, once for the streak.
    expect(sub.failingNotifiedAt!.getTime()).toBeLessThan(sub.disabledAt!.getTime());
    expect(await world.db.event.count({ where: { customerId: customer.customerId, eventType: "webhook.subscription.failing" } })).toBe(1);

    const failingMail = await smtp.waitFor((m) => m.raw.includes("subscription-failing") && m.raw.includes(down.id), 20_000);
    expect(failingMail.raw).toContain("Webhook deliveries failing");
    const disabledMail = await smtp.waitFor((m) => m.raw.includes("X-Esign-Notification: subscription-disabled") && m.raw.includes(down.id), 20_000);
    // Why, and how to re-enable: the PUT with isActive true.
    expect(disabledMail.raw).toContain("Why");
    expect(disabledMail.raw).toContain(`PUT `);
    expect(disabledMail.raw).toContain('{"isActive": true}');
    await eventually(
      () => world.db.webhookSubscription.findFirst({ where: { id: down.id, disabledNotifiedAt: { not: null } } }),
      10_000,
      "disabled notice recorded",
    );
  });
});
