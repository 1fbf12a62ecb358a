import type { CustomerCredentials } from "@esign/accounts";
import { type EsignApiError, EsignClient, type RecoverTask } from "@esign/sdk";
import { startReceiver, type Receiver } from "../support/receiver";
import { startSystem, type System } from "../support/system";
import { createWorld, DEFAULT_EVENT_TYPE, eventually, type World } from "../support/webhook-world";

/*
 * Recover (issue 29): 1,000 events fail while an endpoint is down; once it is back, one recover call
 * delivers each of them exactly once (counted by the receiver, on its 2xx answers), keeping its
 * X-Event-Id, as a task whose progress is read while it runs. The ladder is stretched (x100: the first
 * retry 500 s away) so that nothing but the recover delivers them during the test; batches are small
 * with a pause between them, so the task runs over several reads.
 */

const EVENTS = 1000;

let world: World;
let system: System;
let receiver: Receiver;
let owner: CustomerCredentials;
let sdk: EsignClient;
let down = false;
/** Per X-Event-Id: how many of its deliveries the receiver accepted (answered 2xx). */
const accepted = new Map<string, number>();

beforeAll(async () => {
  world = await createWorld("wh_recover");
  receiver = await startReceiver();
  system = await startSystem(
    ["webhook-dispatcher"],
    world.env({ WEBHOOK_LADDER_SCALE: "100", WEBHOOK_RECOVER_BATCH_SIZE: "100", WEBHOOK_RECOVER_BATCH_PAUSE_MS: "300" }),
  );
  owner = await world.customer();
  sdk = new EsignClient({ baseUrl: system.gateway.url, credentials: { clientId: owner.clientId, clientSecret: owner.clientSecret } });
  receiver.on("/recover", (req) => {
    if (down) return { status: 503 };
    const id = String(req.headers["x-event-id"]);
    accepted.set(id, (accepted.get(id) ?? 0) + 1);
    return { status: 200 };
  });
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  await world?.close();
});

const failedAttempts = (subscriptionId: string) => world.db.webhookAttempt.count({ where: { subscriptionId, outcome: "failure" } });

/**
 * What a recover that did not finish left behind, for the failure message: the task's last read, the
 * subscription's deliveries by state, and its attempts by number, outcome and cause (a CI run once
 * timed out here with nothing else to go on).
 */
async function diagnosis(subscriptionId: string, lastRead: RecoverTask | undefined): Promise<string> {
  const deliveries = await world.db.webhookDelivery.groupBy({ by: ["state"], where: { subscriptionId }, _count: { _all: true } });
  const attempts = await world.db.webhookAttempt.groupBy({
    by: ["attemptNumber", "outcome", "cause"],
    where: { subscriptionId },
    _count: { _all: true },
  });
  return [
    `last read: ${JSON.stringify(lastRead)}`,
    `deliveries: ${JSON.stringify(deliveries.map((d) => [d.state, d._count._all]))}`,
    `attempts: ${JSON.stringify(attempts.map((a) => [a.attemptNumber, a.outcome, a.cause, a._count._all]))}`,
    `accepted by the receiver: ${accepted.size} events, ${[...accepted.values()].reduce((a, b) => a + b, 0)} deliveries`,
  ].join("\n");
}

describe("recovering a window of failed deliveries", () => {
  it("delivers each of 1,000 failed events exactly once, with progress readable while the task runs", async () => {
    const sub = await sdk.subscriptions.create({ eventTypes: [DEFAULT_EVENT_TYPE], endpoint: receiver.url("/recover") });
    const since = new Date();
    // Delivered fine inside the window: not failed, so not sent again.
    const fine = await world.emit(owner.customerId);
    await eventually(async () => accepted.get(fine) === 1, 20_000, "the first event delivered");

    down = true;
    const failed = await world.emitMany(owner.customerId, EVENTS);
    await eventually(async () => (await failedAttempts(sub.id)) === EVENTS, 120_000, "1,000 first attempts failed");
    const until = new Date();
    // Failed after the window: left to its ladder.
    const later = await world.emit(owner.customerId);
    await eventually(async () => (await failedAttempts(sub.id)) === EVENTS + 1, 20_000, "the later event failed");
    down = false;

    const task = await sdk.subscriptions.recover(sub.id, { since, until });
    expect(task).toMatchObject({ subscriptionId: sub.id, all: false, state: "queued", queued: 0, delivered: 0, finishedAt: null });
    const reads: RecoverTask[] = [];
    const done = await eventually(
      async () => {
        const read = await sdk.subscriptions.recoverTask(sub.id, task.id);
        reads.push(read);
        return read.state === "completed" && read.delivered === EVENTS ? read : undefined;
      },
      120_000,
      "recover task completed and every event delivered",
    ).catch(async (err: unknown) => {
      throw new Error(`${(err as Error).message}\n${await diagnosis(sub.id, reads.at(-1))}`);
    });
    expect(done).toMatchObject({ total: EVENTS, queued: EVENTS, delivered: EVENTS });
    expect(done.finishedAt).not.toBeNull();
    // Read while it ran: part of the window queued, and never going backwards.
    expect(reads.some((r) => r.state === "running" && r.queued > 0 && r.queued < EVENTS)).toBe(true);
    for (let i = 1; i < reads.length; i++) {
      expect(reads[i]!.queued).toBeGreaterThanOrEqual(reads[i - 1]!.queued);
      expect(reads[i]!.delivered).toBeGreaterThanOrEqual(reads[i - 1]!.delivered);
    }

    // Receiver side: each failed event accepted exactly once, under its own X-Event-Id.
    expect(failed.map((id) => accepted.get(id) ?? 0)).toEqual(failed.map(() => 1));
    expect(accepted.get(fine)).toBe(1);
    expect(accepted.get(later)).toBeUndefined();
    expect([...accepted.values()].reduce((a, b) => a + b, 0)).toBe(EVENTS + 1);
    // And in the log: one failure, then one success, for each of them.
    const attempts = await world.db.webhookAttempt.groupBy({ by: ["eventId"], where: { eventId: { in: failed } }, _count: { _all: true } });
    expect(attempts.every((a) => a._count._all === 2)).toBe(true);
    // Work-bound, not time-bound: 2,000 attempts through real processes; its own waits bound each phase.
  }, 300_000);

  it("recovers every delivery of the window with all: true, and refuses a bad window or a disabled subscription", async () => {
    const sub = await sdk.subscriptions.create({ eventTypes: [DEFAULT_EVENT_TYPE], endpoint: receiver.url("/recover-all") });
    const since = new Date();
    const ok = await world.emit(owner.customerId);
    await receiver.waitFor("/recover-all", 1);
    const task = await sdk.subscriptions.recover(sub.id, { since, all: true });
    const done = await eventually(async () => {
      const read = await sdk.subscriptions.recoverTask(sub.id, task.id);
      return read.state === "completed" ? read : undefined;
    });
    expect(done).toMatchObject({ total: 1, queued: 1 });
    const again = await receiver.waitFor("/recover-all", 2);
    expect(again.map((r) => r.headers["x-event-id"])).toEqual([ok, ok]);

    const backwards = await sdk.subscriptions.recover(sub.id, { since: new Date(), until: since }).catch((e: unknown) => e);
    expect((backwards as EsignApiError).status).toBe(400);
    expect((backwards as EsignApiError).errors?.map((e) => e.path)).toEqual(["since"]);
    const missing = await sdk.subscriptions.recoverTask(sub.id, "00000000-0000-4000-8000-000000000000").catch((e: unknown) => e);
    expect((missing as EsignApiError).status).toBe(404);
    await sdk.subscriptions.update(sub.id, { isActive: false });
    const disabled = await sdk.subscriptions.recover(sub.id, { since }).catch((e: unknown) => e);
    expect((disabled as EsignApiError).status).toBe(409);
  });
});
