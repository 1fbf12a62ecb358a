import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { emitEvent, type Event } from "@esign/db";
import { signerEvent } from "@esign/schema";
import { loadConfig } from "@esign/config";
import { createLogger } from "@esign/logger";
import { MailThrottle, Producer, createRedis } from "@esign/queue";
import { createSealer } from "@esign/seal";
import { LocalFileStorage } from "@esign/storage";
import type { WorkerContext } from "../../services/casefile-worker/src/context";
import { PDFArray, type PDFDocument, PDFRawStream, decodePDFRawStream } from "pdf-lib";
import { getToken, newCustomer, postCreate, testDb, waitForJob, type UploadFile } from "./api";
import { startSystem, type System } from "./system";

/** The gateway (creation endpoint) and one casefile-worker, sharing the run's database, Redis prefix and storage. */
export async function startLifecycleSystem(): Promise<System> {
  // No relay: these suites publish the outbox's jobs themselves (testProducer), or leave them out.
  return startSystem(["casefile-worker"], { OUTBOX_RELAY_SERVICES: "none" }, { JOB_POLL_LIMIT_PER_MINUTE: "0" });
}

/** Enqueues as the outbox relay would: straight onto the run's casefile queue. */
export function testProducer(): { producer: Producer; mailThrottle: MailThrottle; close(): Promise<void> } {
  const connection = createRedis(process.env.REDIS_URL ?? "", "worker");
  const producer = new Producer(connection, process.env.QUEUE_PREFIX ?? "");
  return {
    producer,
    // The services' own limit, as the worker running beside the test has it.
    mailThrottle: new MailThrottle(connection, process.env.QUEUE_PREFIX ?? "", loadConfig(process.env).MAILS_PER_CUSTOMER_PER_MINUTE),
    async close() {
      await producer.close();
      connection.disconnect();
    },
  };
}

/** The casefile worker's context for calling its jobs in a test's own process, on testProducer's Redis. */
export async function testWorkerContext(queue: ReturnType<typeof testProducer>, service: string): Promise<WorkerContext> {
  const config = loadConfig(process.env);
  return {
    config,
    logger: createLogger({ service, level: "error" }),
    db: testDb(),
    producer: queue.producer,
    mailThrottle: queue.mailThrottle,
    storage: new LocalFileStorage(config.STORAGE_DIR),
    sealer: await createSealer({ production: false, developmentDir: config.SEAL_DEVELOPMENT_DIR }),
  };
}

export async function customerToken(system: System): Promise<{ customerId: number; token: string }> {
  const creds = await newCustomer();
  return { customerId: creds.customerId, token: await getToken(system.gateway.url, creds) };
}

/**
 * Creates a case file through the real create endpoint and waits for the creation job. Its own
 * Idempotency-Key makes each call a new case file, even for a payload sent moments before.
 */
export async function createCaseFile(system: System, token: string, caseFile: Record<string, unknown>, files: UploadFile[]): Promise<number> {
  const created = await postCreate(system.gateway.url, token, { caseFile }, files, { "Idempotency-Key": randomUUID() });
  if (created.status !== 200) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
  const job = await waitForJob(system.gateway.url, created.body.jobs[0]!.uuid, created.body.jobs[0]!.payloadHash);
  if (job.jobStatus !== "completed" || !job.result) throw new Error(`creation job ${job.jobStatus}: ${job.errorMessage}`);
  return job.result.data.caseFile.id;
}

/**
 * What the gateway's signing route does when a signer signs: under the case file lock, signer status 4
 * with time and method, and `sign.signer.signed` in the same transaction. Returns the event id.
 */
export async function recordSignature(signerId: number, method = "text"): Promise<{ eventId: string; caseFileId: number }> {
  return testDb().$transaction(async (tx) => {
    const { caseFileId, name } = await tx.signer.findUniqueOrThrow({ where: { id: signerId } });
    await tx.$queryRaw`SELECT id FROM "CaseFile" WHERE id = ${caseFileId} FOR UPDATE`;
    const cf = await tx.caseFile.findUniqueOrThrow({ where: { id: caseFileId } });
    await tx.signer.update({ where: { id: signerId }, data: { status: 4, signedAt: new Date(), signatureMethod: method, signatureValue: name } });
    const eventId = await emitEvent(tx, signerEvent(cf, cf.status, signerId, "sign.signer.signed"));
    return { eventId, caseFileId };
  });
}

/** The events of one case file, oldest first: casefile events by payload id, signer events by payload caseFile.id. */
export async function eventsOf(customerId: number, caseFileId: number): Promise<Event[]> {
  const all = await testDb().event.findMany({ where: { customerId }, orderBy: { occurredAt: "asc" } });
  return all.filter((e) => {
    const p = e.payload as { id?: number; caseFile?: { id?: number } };
    return e.topic === "casefile" ? p.id === caseFileId : p.caseFile?.id === caseFileId;
  });
}

export const ofType = (events: Event[], type: string) => events.filter((e) => e.eventType === type);

export async function until(check: () => Promise<boolean>, timeoutMs = 15_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where the content-addressed storage keeps a file (`<root>/ab/cd/<sha256>`). */
export function storedPath(sha256: string): string {
  const root = process.env.STORAGE_DIR ?? "";
  return path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
}

export const readStored = (sha256: string): Buffer => readFileSync(storedPath(sha256));
export const overwriteStored = (sha256: string, content: Buffer): void => writeFileSync(storedPath(sha256), content);

/** The strings a page draws with Tj (pdf-lib writes standard-font text as WinAnsi hex strings). */
export function pageText(doc: PDFDocument, index: number): string {
  const contents = doc.getPage(index).node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  const parts: string[] = [];
  for (const s of streams) {
    if (!(s instanceof PDFRawStream)) continue;
    const ops = Buffer.from(decodePDFRawStream(s).decode()).toString("latin1");
    for (const m of ops.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) parts.push(Buffer.from(m[1] ?? "", "hex").toString("latin1"));
  }
  return parts.join("\n");
}
