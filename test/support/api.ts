import { randomUUID } from "node:crypto";
import { createCustomer, type CustomerCredentials, type NewCustomer } from "@esign/accounts";
import { createPrisma, type Db } from "@esign/db";

let db: Db | undefined;

/** The test run's own database (see global-setup). */
export function testDb(): Db {
  db ??= createPrisma(process.env.DATABASE_URL ?? "", 4);
  return db;
}

/** A customer and its owner whose webhook subscription wants `eventTypes` (rows only: nothing listens at its endpoint). */
export async function watchedCustomer(eventTypes: string[]): Promise<{ customerId: number; userId: number }> {
  const db = testDb();
  const customer = await db.customer.create({ data: { name: "Watched Ltd" } });
  const owner = await db.user.create({ data: { customerId: customer.id, email: `owner-${randomUUID()}@watched.example`, name: "Owner" } });
  await db.webhookSubscription.create({
    data: { id: randomUUID(), customerId: customer.id, createdByUserId: owner.id, endpoint: "https://hooks.example/in", eventTypes, secretEnc: "x" },
  });
  return { customerId: customer.id, userId: owner.id };
}

export async function closeTestDb(): Promise<void> {
  await db?.$disconnect();
  db = undefined;
}

/**
 * The test run's encryption key (global-setup gives it to every service it starts). Not the public
 * development key, which production refuses, so that production-mode services of a test can share it.
 */
export const TEST_ENCRYPTION_KEY = "375fccbc3a7a55fe5bda0bac6675c23f1cb83de2d3c35b55c377012d74d0b0ee";

export function newCustomer(input: Partial<NewCustomer> = {}): Promise<CustomerCredentials> {
  return createCustomer(testDb(), { name: `Customer ${Math.random().toString(36).slice(2, 8)}`, ...input }, TEST_ENCRYPTION_KEY);
}

export async function getToken(baseUrl: string, creds: Pick<CustomerCredentials, "clientId" | "clientSecret">): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret }),
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export interface UploadFile {
  name: string;
  content: Buffer;
  field?: string;
  type?: string;
}

export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

async function answer<T>(res: Response): Promise<HttpAnswer<T>> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

export interface CreateAnswer {
  status: string;
  message: string;
  jobs: { uuid: string; payloadHash: string; createdAt: string }[];
}

/** A real multipart request: `data` as a string field (or as given), then the file parts. */
export async function postCreate(
  baseUrl: string,
  token: string | undefined,
  data: unknown,
  files: UploadFile[],
  headers: Record<string, string> = {},
): Promise<HttpAnswer<CreateAnswer & ErrorAnswer>> {
  const form = new FormData();
  if (data !== undefined) form.append("data", typeof data === "string" ? data : JSON.stringify(data));
  for (const f of files) form.append(f.field ?? "files", new Blob([f.content], { type: f.type ?? "application/pdf" }), f.name);
  const res = await fetch(`${baseUrl}/send/api/v1/casefiles/20251022/create`, {
    method: "POST",
    headers: { ...(token ? { "X-Auth-Token": token } : {}), ...headers },
    body: form,
  });
  return answer(res);
}

export interface ErrorAnswer {
  error: string;
  message: string;
  statusCode: number;
  errors?: { path: string; code: string; message: string }[];
}

export interface JobAnswer {
  uuid: string;
  type: string;
  jobStatus: "pending" | "processing" | "completed" | "failed" | "aborted_duplicated";
  result: null | {
    data: { caseFile: { id: number; status: number }; signingLinks: { signerId: number; name: string; role: string; signingLink: string }[] };
  };
  payloadHash: string;
  errorMessage: string | null;
  retries: number;
  maxRetries: number;
  createdAt: string;
  updatedAt: string;
}

export async function pollOnce(baseUrl: string, uuid: string, payloadHash: string): Promise<HttpAnswer<JobAnswer & ErrorAnswer>> {
  const res = await fetch(`${baseUrl}/send/api/v1/queue/public/status`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ uuid, payloadHash }),
  });
  return answer(res);
}

/** Polls like a well-behaved client: honours Retry-After, stops at a final state. */
export async function waitForJob(baseUrl: string, uuid: string, payloadHash: string, timeoutMs = 30_000): Promise<JobAnswer> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const a = await pollOnce(baseUrl, uuid, payloadHash);
    if (a.status === 200 && (a.body.jobStatus === "completed" || a.body.jobStatus === "failed" || a.body.jobStatus === "aborted_duplicated")) return a.body;
    if (a.status !== 200 && a.status !== 429) throw new Error(`job status answered ${a.status}: ${JSON.stringify(a.body)}`);
    const wait = a.status === 429 ? Number(a.headers.get("retry-after") ?? "1") * 1000 : 100;
    await new Promise((r) => setTimeout(r, Math.min(wait, 1000)));
  }
  throw new Error(`job ${uuid} not final after ${timeoutMs} ms`);
}

export async function getJson<T = unknown>(url: string, headers: Record<string, string> = {}): Promise<HttpAnswer<T>> {
  return answer(await fetch(url, { headers }));
}
