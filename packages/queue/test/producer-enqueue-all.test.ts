import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { Producer, createRedis, type RedisConnection } from "../src";

/*
 * Producer.enqueueAll: the outbox relay's and the creation job's jobs of a batch (dispatch, signing
 * requests, round advances), of several queues, added in one pipeline: one socket write, each job as
 * `enqueue` adds it (the catalog's attempts, a delay, a job id Redis has ignored).
 */

let connection: RedisConnection;
let producer: Producer;
const prefix = `esign-test-enqueue-all-${process.pid}-${Date.now().toString(36)}`;

beforeAll(() => {
  connection = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "producer");
  producer = new Producer(connection, prefix);
});

afterAll(async () => {
  await producer.close();
  const keys = await connection.keys(`${prefix}:*`);
  if (keys.length > 0) await connection.del(...keys);
  connection.disconnect();
});

afterEach(() => jest.restoreAllMocks());

it("adds jobs of several queues in one socket write, each as enqueue adds it", async () => {
  const id = randomUUID();
  // Warm the queues' connection first: its first use loads BullMQ's scripts, writes of its own.
  await Promise.all([producer.queue("events").client, producer.queue("notifications").client, producer.queue("casefile").client]);
  const write = jest.spyOn((connection as Redis).stream, "write");

  const ids = await producer.enqueueAll([
    { queue: "events", name: "dispatch", data: { eventIds: [`e-${id}`] }, opts: { jobId: `dispatch-${id}` } },
    {
      queue: "notifications",
      name: "signing-request",
      data: { signerId: 1, eventId: `e-${id}`, customerId: 7 },
      opts: { jobId: `request-${id}`, delay: 60_000 },
    },
    { queue: "casefile", name: "advance", data: { caseFileId: 3 }, opts: { jobId: `advance-${id}` } },
  ]);

  expect(write).toHaveBeenCalledTimes(1);
  expect(ids).toEqual([`dispatch-${id}`, `request-${id}`, `advance-${id}`]);
  const [dispatch, request, advance] = await Promise.all([
    producer.queue("events").getJob(`dispatch-${id}`),
    producer.queue("notifications").getJob(`request-${id}`),
    producer.queue("casefile").getJob(`advance-${id}`),
  ]);
  expect(dispatch?.data).toEqual({ eventIds: [`e-${id}`] });
  expect(await dispatch?.getState()).toBe("waiting");
  expect(request?.data).toEqual({ signerId: 1, eventId: `e-${id}`, customerId: 7 });
  expect(await request?.getState()).toBe("delayed");
  expect(request?.opts.delay).toBe(60_000);
  // The catalog's attempts, as enqueue gives them.
  const single = await producer.enqueue("casefile", "advance", { caseFileId: 4 }, { jobId: `single-${id}` });
  const singleJob = await producer.queue("casefile").getJob(single);
  expect(advance?.opts.attempts).toBe(singleJob?.opts.attempts);
  expect(advance?.opts.attempts).toBeGreaterThan(1);
});

it("ignores a job id Redis has, as a relay publishing twice needs", async () => {
  const id = randomUUID();
  const job = { queue: "casefile" as const, name: "advance", data: { caseFileId: 5 }, opts: { jobId: `again-${id}` } };
  await producer.enqueueAll([job]);
  await producer.enqueueAll([
    { ...job, data: { caseFileId: 6 } },
    { ...job, opts: { jobId: `other-${id}` } },
  ]);
  expect((await producer.queue("casefile").getJob(`again-${id}`))?.data).toEqual({ caseFileId: 5 });
  expect((await producer.queue("casefile").getJob(`other-${id}`))?.data).toEqual({ caseFileId: 5 });
});

it("refuses a job the catalog does not have before writing anything", async () => {
  const write = jest.spyOn((connection as Redis).stream, "write");
  await expect(producer.enqueueAll([{ queue: "casefile", name: "no-such-job", data: {} }])).rejects.toThrow("not in the catalog");
  expect(write).not.toHaveBeenCalled();
});
