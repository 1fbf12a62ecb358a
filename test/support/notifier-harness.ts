import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { encryptSecret, sha256Hex } from "@esign/db";
import { Producer, createRedis, type RedisConnection } from "@esign/queue";
import type { JobData, JobNames } from "@esign/schema";
import { LocalFileStorage } from "@esign/storage";

import { TEST_ENCRYPTION_KEY, newCustomer, testDb } from "./api";
import { makePdf } from "./pdf";
import { startService, type ServiceProcess } from "./services";
import { startSmtpSink, type SmtpSink } from "./smtp-sink";
import type { EboksSimulatorFile } from "../../services/notifier/src/channels/eboks-simulator";

export const PUBLIC_BASE_URL = "https://esign.test";

/**
 * One notifier process with its own SMTP sink, e-Boks simulator folder and queue prefix (under the
 * run's prefix, so global teardown removes it): another test file's notifier cannot take these jobs.
 */
export interface Harness {
  sink: SmtpSink;
  notifier: ServiceProcess;
  producer: Producer;
  eboksDir: string;
  enqueue<N extends JobNames<"notifications">>(name: N, data: JobData<"notifications", N>): Promise<string>;
  finished(jobId: string, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

export async function startHarness(name: string, env: Record<string, string> = {}): Promise<Harness> {
  const sink = await startSmtpSink();
  const prefix = `${process.env.QUEUE_PREFIX ?? "esign-test"}:notifier-${name}`;
  const eboksDir = mkdtempSync(path.join(process.env.ESIGN_TEST_DIR ?? os.tmpdir(), `eboks-${name}-`));
  const notifier = await startService("notifier", {
    SMTP_URL: sink.url,
    QUEUE_PREFIX: prefix,
    PUBLIC_BASE_URL,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    EBOKS_SIMULATOR_DIR: eboksDir,
    LOG_LEVEL: "info",
    ...env,
  });
  const redis: RedisConnection = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "worker");
  const producer = new Producer(redis, prefix);
  return {
    sink,
    notifier,
    producer,
    eboksDir,
    enqueue: (jobName, data) => producer.enqueue("notifications", jobName, data),
    async finished(jobId, timeoutMs = 20_000) {
      const queue = producer.queue("notifications");
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const state = await queue.getJobState(jobId);
        if (state === "completed" || state === "failed") return state;
        if (Date.now() > deadline) throw new Error(`job ${jobId} still ${state} after ${timeoutMs} ms:\n${notifier.logs}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      await notifier.stop();
      await producer.close();
      redis.disconnect();
      await sink.stop();
    },
  };
}

export interface SignerSpec {
  name?: string;
  /** null: no address at all. */
  email?: string | null;
  channel?: "email" | "eboks";
  cpr?: string;
  cvr?: string;
  language?: string | null;
  role?: string;
  status?: number;
  expireAt?: Date | null;
  notification?: Record<string, unknown>;
}

export interface DocumentSpec {
  title: string;
  name: string;
  signable?: boolean;
  roles?: string[];
  /** A signed version (finalized): its bytes are what completion mails must carry. */
  signed?: boolean;
}

export interface CaseFileSpec {
  title?: string;
  status?: number;
  language?: string | null;
  senderName?: string | null;
  sensitiveData?: boolean;
  visibilityMode?: number;
  disableEmailAttachments?: boolean;
  disableNotificationsOwner?: boolean;
  signers: SignerSpec[];
  documents?: DocumentSpec[];
  cc?: { name: string; email: string }[];
}

export interface Fixture {
  tag: string;
  customerId: number;
  customerName: string;
  caseFileId: number;
  ownerEmail: string;
  signers: { id: number; name: string; email: string | null; token: string; link: string }[];
  documents: { id: number; name: string; title: string; original: Buffer; signed?: Buffer }[];
}

/** Unique per test: addresses and names carry it, so sink lookups and rejection rules never cross tests. */
export const newTag = () => randomUUID().slice(0, 8);

/**
 * The rows the casefile-worker would have written for a case file that is out for signing: case file
 * (no creation job), documents with their PDFs in storage, signers with encrypted link tokens.
 */
export async function createCaseFile(spec: CaseFileSpec, tag = newTag()): Promise<Fixture> {
  const db = testDb();
  const ownerEmail = `owner+${tag}@example.com`;
  const customerName = `Acme ${tag}`;
  const { customerId, userId } = await newCustomer({ name: customerName, adminEmail: ownerEmail, eboksEnabled: true });
  const storage = new LocalFileStorage(process.env.STORAGE_DIR!);
  const cf = await db.caseFile.create({
    data: {
      customerId,
      userId,
      creationJobId: null,
      title: spec.title ?? `Employment contract ${tag}`,
      status: spec.status ?? 1,
      language: spec.language ?? null,
      senderName: spec.senderName ?? null,
      sensitiveData: spec.sensitiveData ?? false,
      visibilityMode: spec.visibilityMode ?? 0,
      disableEmailAttachments: spec.disableEmailAttachments ?? false,
      disableNotificationsOwner: spec.disableNotificationsOwner ?? false,
      sentAt: new Date(),
    },
  });
  const documents: Fixture["documents"] = [];
  for (const [i, d] of (spec.documents ?? [{ title: `Contract ${tag}`, name: "contract.pdf" }]).entries()) {
    const original = await makePdf(`${d.title} original`);
    const signed = d.signed ? await makePdf(`${d.title} signed`, 2) : undefined;
    const fileSha256 = await storage.put(original);
    const signedSha256 = signed ? await storage.put(signed) : null;
    const row = await db.document.create({
      data: {
        caseFileId: cf.id,
        title: d.title,
        name: d.name,
        signable: d.signable ?? true,
        roles: d.roles ?? [],
        documentOrder: i,
        fileSha256,
        size: original.length,
        signedSha256,
      },
    });
    documents.push({ id: row.id, name: d.name, title: d.title, original, signed });
  }
  const signers: Fixture["signers"] = [];
  for (const [i, s] of spec.signers.entries()) {
    const name = s.name ?? `Signer ${i + 1} ${tag}`;
    const email = s.email === null ? null : (s.email ?? (s.channel === "eboks" ? null : `signer${i + 1}+${tag}@example.com`));
    const row = await db.signer.create({
      data: {
        caseFileId: cf.id,
        name,
        email,
        channel: s.channel ?? "email",
        cprEnc: s.cpr ? encryptSecret(s.cpr, TEST_ENCRYPTION_KEY) : null,
        cvr: s.cvr ?? null,
        role: s.role ?? "Signer",
        language: s.language ?? null,
        status: s.status ?? 1,
        expireAt: s.expireAt ?? null,
        activatedAt: new Date(),
        notification: { emailFormat: null, emailSubject: null, emailText: null, reminderInterval: null, ...s.notification },
      },
    });
    const token = randomBytes(32).toString("base64url");
    await db.signingLink.create({ data: { signerId: row.id, tokenHash: sha256Hex(token), tokenEnc: encryptSecret(token, TEST_ENCRYPTION_KEY) } });
    signers.push({ id: row.id, name, email, token, link: `${PUBLIC_BASE_URL}/sign/${token}` });
  }
  if (spec.cc?.length) await db.ccRecipient.createMany({ data: spec.cc.map((c) => ({ caseFileId: cf.id, name: c.name, email: c.email })) });
  return { tag, customerId, customerName, caseFileId: cf.id, ownerEmail, signers, documents };
}

export interface EventRow {
  eventType: string;
  payload: { id: number; caseFile: { id: number; status: number } };
  occurredAt: Date;
}

/** The customer's outbox events, oldest first (each test has its own customer). */
export async function eventsOf(customerId: number, signerId?: number): Promise<EventRow[]> {
  const rows = await testDb().event.findMany({ where: { customerId }, orderBy: { occurredAt: "asc" } });
  return rows
    .map((r) => ({ eventType: r.eventType, payload: r.payload as unknown as EventRow["payload"], occurredAt: r.occurredAt }))
    .filter((e) => signerId === undefined || e.payload.id === signerId);
}

export const typesOf = (events: EventRow[]) => events.map((e) => e.eventType);

/** Polls until the predicate holds (for events and rows written by the other process). */
export async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function eboksFiles(dir: string): Promise<EboksSimulatorFile[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".json")).sort();
  return Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(dir, n), "utf8")) as EboksSimulatorFile));
}

/** The text part with the wire's CRLF line ends turned into \n, as the message was written. */
export const textOf = (m: { text: string }) => m.text.replace(/\r\n/g, "\n");
