import { randomUUID } from "node:crypto";
import { encryptSecret } from "@esign/db";
import type { TLanguage } from "@esign/i18n";
import { Producer, createRedis, type RedisConnection } from "@esign/queue";

import { TEST_ENCRYPTION_KEY, closeTestDb, newCustomer, testDb } from "../../../test/support/api";
import { startService, type ServiceProcess } from "../../../test/support/services";
import { startSmtpSink, type SinkMessage, type SmtpSink } from "../../../test/support/smtp-sink";

// A queue prefix of this file's own, under the run's prefix (so global teardown still removes it):
// another test file's notifier on the shared prefix would otherwise take these jobs and mail elsewhere.
const QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? "esign-test"}:notifier-test`;
const PUBLIC_BASE_URL = "https://api.esign.test";

let sink: SmtpSink;
let notifier: ServiceProcess;
let redis: RedisConnection;
let producer: Producer;

beforeAll(async () => {
  sink = await startSmtpSink();
  notifier = await startService("notifier", { SMTP_URL: sink.url, QUEUE_PREFIX, PUBLIC_BASE_URL });
  redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "worker");
  producer = new Producer(redis, QUEUE_PREFIX);
});

afterAll(async () => {
  await notifier?.stop();
  await producer?.close();
  redis?.disconnect();
  await sink?.stop();
  await closeTestDb();
});

interface Team {
  tag: string;
  customerId: number;
  owner: string;
  secondAdmin: string;
  creator: string;
  bystander: string;
}

/**
 * A customer whose subscription was created by a non-admin developer, with two admins, one more
 * non-admin, and an admin account of the developer under the same address in other letter case.
 */
async function team(language: TLanguage | null = null): Promise<Team> {
  const tag = randomUUID().slice(0, 8);
  const t = {
    owner: `owner+${tag}@example.com`,
    secondAdmin: `second-admin+${tag}@example.com`,
    creator: `dev+${tag}@example.com`,
    bystander: `bystander+${tag}@example.com`,
  };
  const { customerId } = await newCustomer({ name: `Acme ${tag}`, adminEmail: t.owner, language });
  const db = testDb();
  await db.user.create({ data: { customerId, email: t.secondAdmin, name: "Second admin", isAdmin: true } });
  await db.user.create({ data: { customerId, email: t.creator, name: "Developer", isAdmin: false } });
  await db.user.create({ data: { customerId, email: t.bystander, name: "Bystander", isAdmin: false } });
  await db.user.create({ data: { customerId, email: t.creator.toUpperCase(), name: "Developer (admin account)", isAdmin: true } });
  return { tag, customerId, ...t };
}

/** A subscription disabled a minute ago after its ladder ran out, with the last failed attempt on record. */
async function disabledSubscription(tm: Team, disabledAt = new Date(Date.now() - 60_000)) {
  const db = testDb();
  const creator = await db.user.findFirstOrThrow({ where: { customerId: tm.customerId, email: tm.creator } });
  const id = randomUUID();
  const endpoint = `https://hooks.example.com/esign/${tm.tag}`;
  await db.webhookSubscription.create({
    data: {
      id,
      customerId: tm.customerId,
      createdByUserId: creator.id,
      endpoint,
      eventTypes: ["sign.casefile.completed", "sign.signer.signed"],
      secretEnc: encryptSecret("whsec_x", TEST_ENCRYPTION_KEY),
      isActive: false,
      disabledAt,
    },
  });
  const deliveryId = randomUUID();
  const eventId = randomUUID();
  await db.webhookDelivery.create({ data: { id: deliveryId, eventId, subscriptionId: id, state: "exhausted", attempts: 36, ladderStep: 36 } });
  await db.webhookAttempt.create({
    data: {
      id: randomUUID(),
      deliveryId,
      eventId,
      subscriptionId: id,
      attemptNumber: 36,
      outcome: "failure",
      httpStatus: 503,
      cause: "non_2xx",
      durationMs: 40,
    },
  });
  return { id, endpoint, disabledAt };
}

async function enqueue(subscriptionId: string): Promise<string> {
  return producer.enqueue("notifications", "subscription-disabled", { subscriptionId });
}

/** Waits for the job to finish; returns its final state. */
async function finished(jobId: string, timeoutMs = 20_000): Promise<string> {
  const queue = producer.queue("notifications");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await queue.getJobState(jobId);
    if (state === "completed" || state === "failed") return state;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${state} after ${timeoutMs} ms:\n${notifier.logs}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const notifiedAt = async (id: string) => (await testDb().webhookSubscription.findUniqueOrThrow({ where: { id } })).disabledNotifiedAt;
const forEndpoint = (endpoint: string) => (m: SinkMessage) => m.subject === `Webhook subscription disabled: ${endpoint}`;

describe("notifier: subscription-disabled", () => {
  it("writes in the customer's language when it has one (German here), with the same facts and the same call", async () => {
    const tm = await team("de");
    const sub = await disabledSubscription(tm);
    const jobId = await enqueue(sub.id);
    const msg = await sink.waitFor((m) => m.subject === `Webhook-Abonnement deaktiviert: ${sub.endpoint}`, 20_000);
    expect(await finished(jobId)).toBe("completed");
    expect(msg.headers["content-language"]).toBe("de");
    expect(msg.text).toContain(`Endpunkt:        ${sub.endpoint}`);
    expect(msg.text).toContain(`Deaktiviert am:  ${sub.disabledAt.toISOString().slice(0, 19).replace("T", " ")} UTC`);
    expect(msg.text).toContain("alle 35 Wiederholungen sind fehlgeschlagen");
    expect(msg.text).toContain("der Endpunkt hat mit HTTP 503 geantwortet");
    expect(msg.text).toContain(`PUT ${PUBLIC_BASE_URL}/webhook/api/v1/subscriptions/${sub.id}`);
    expect(msg.text).toContain(`Administrator bei Acme ${tm.tag}`);
  });

  it("mails the creator and every admin once over SMTP, not other users, marks the notice sent, and ignores a duplicate job", async () => {
    const tm = await team();
    const other = await team(); // admins of another customer must not hear about it
    const sub = await disabledSubscription(tm);

    const jobId = await enqueue(sub.id);
    const msg = await sink.waitFor(forEndpoint(sub.endpoint), 20_000);
    expect(await finished(jobId)).toBe("completed");

    // The envelope is what decides who gets it: exactly the creator and the two admins, each once.
    expect([...msg.to].sort()).toEqual([tm.creator, tm.owner, tm.secondAdmin].sort());
    for (const nobody of [tm.bystander, other.owner, other.creator]) expect(sink.messagesTo(nobody)).toHaveLength(0);
    expect(msg.from).toBe("no-reply@esign.local");
    expect(msg.headers["x-esign-subscription-id"]).toBe(sub.id);

    // Which endpoint, why, when and how to turn it back on.
    expect(msg.text).toContain(`Endpoint:      ${sub.endpoint}`);
    expect(msg.text).toContain(`Subscription:  ${sub.id}`);
    expect(msg.text).toContain("all 35 retries failed");
    expect(msg.text).toContain("the endpoint answered HTTP 503");
    expect(msg.text).toContain(`Disabled at:   ${sub.disabledAt.toISOString().slice(0, 19).replace("T", " ")} UTC`);
    expect(msg.text).toContain(`PUT ${PUBLIC_BASE_URL}/webhook/api/v1/subscriptions/${sub.id}`);
    expect(msg.text).toContain('{"isActive": true}');

    const stamped = await notifiedAt(sub.id);
    expect(stamped).not.toBeNull();
    expect(stamped!.getTime()).toBeGreaterThanOrEqual(sub.disabledAt.getTime());

    // The same notice again (a sweeper, a manual retry): nothing more is sent, nothing changes.
    const before = sink.messages.length;
    expect(await finished(await enqueue(sub.id))).toBe("completed");
    expect(sink.messages.length).toBe(before);
    expect(sink.messages.filter(forEndpoint(sub.endpoint))).toHaveLength(1);
    expect(await notifiedAt(sub.id)).toEqual(stamped);
  });

  it("sends one mail when copies of the job run at the same time", async () => {
    const tm = await team();
    const sub = await disabledSubscription(tm);
    const jobs = await Promise.all([enqueue(sub.id), enqueue(sub.id), enqueue(sub.id)]);
    expect(await Promise.all(jobs.map((j) => finished(j)))).toEqual(["completed", "completed", "completed"]);
    expect(sink.messages.filter(forEndpoint(sub.endpoint))).toHaveLength(1);
  });

  it("mails again when the subscription is disabled again later", async () => {
    const tm = await team();
    const sub = await disabledSubscription(tm);
    expect(await finished(await enqueue(sub.id))).toBe("completed");
    await sink.waitFor(forEndpoint(sub.endpoint));

    // Re-enabled by the customer, then its ladder ran out once more.
    await testDb().webhookSubscription.update({ where: { id: sub.id }, data: { disabledAt: new Date(Date.now() + 1000) } });
    expect(await finished(await enqueue(sub.id))).toBe("completed");
    expect(sink.messages.filter(forEndpoint(sub.endpoint))).toHaveLength(2);
  });

  it("sends nothing for a subscription re-enabled before the job ran", async () => {
    const tm = await team();
    const sub = await disabledSubscription(tm);
    await testDb().webhookSubscription.update({ where: { id: sub.id }, data: { isActive: true, disabledAt: null } });
    expect(await finished(await enqueue(sub.id))).toBe("completed");
    expect(sink.messages.filter(forEndpoint(sub.endpoint))).toHaveLength(0);
    expect(await notifiedAt(sub.id)).toBeNull();
  });

  it("logs a permanent refusal (550), marks the notice done and does not retry", async () => {
    const tm = await team();
    const sub = await disabledSubscription(tm);
    const everyone = new RegExp(`\\+${tm.tag}@example\\.com$`, "i");
    sink.rejectRecipient(everyone, 550, "5.1.1 Mailbox does not exist");
    try {
      const jobId = await enqueue(sub.id);
      expect(await finished(jobId)).toBe("completed");
      expect((await producer.queue("notifications").getJob(jobId))?.attemptsMade).toBe(1);
    } finally {
      sink.acceptRecipient(everyone);
    }
    expect(sink.messages.filter(forEndpoint(sub.endpoint))).toHaveLength(0);
    expect(await notifiedAt(sub.id)).not.toBeNull();
    const line = notifier.logs.split("\n").find((l) => l.includes(sub.id) && l.includes("undeliverable"));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: "error", subscriptionId: sub.id, responseCode: 550 });
  });

  it("retries after a temporary refusal (451) until the server takes the message", async () => {
    const tm = await team();
    const sub = await disabledSubscription(tm);
    const everyone = new RegExp(`\\+${tm.tag}@example\\.com$`, "i");
    sink.rejectRecipient(everyone, 451, "4.2.0 Try again later");
    const jobId = await enqueue(sub.id);
    try {
      await sink.waitForRejection(tm.owner, 20_000);
      // The first attempt failed and rolled back: nothing is marked yet.
      expect(await notifiedAt(sub.id)).toBeNull();
    } finally {
      sink.acceptRecipient(everyone);
    }
    // The catalog's backoff (5 s) brings the retry.
    const msg = await sink.waitFor(forEndpoint(sub.endpoint), 30_000);
    expect([...msg.to].sort()).toEqual([tm.creator, tm.owner, tm.secondAdmin].sort());
    expect(await finished(jobId)).toBe("completed");
    expect((await producer.queue("notifications").getJob(jobId))?.attemptsMade).toBeGreaterThanOrEqual(2);
    expect(await notifiedAt(sub.id)).not.toBeNull();
  });
});
