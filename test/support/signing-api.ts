import { randomUUID } from "node:crypto";
import { deflateSync } from "node:zlib";
import type { Event } from "@esign/db";
import { postCreate, testDb, waitForJob, type ErrorAnswer, type HttpAnswer, type UploadFile } from "./api";

/** GET /sign/{token} as JSON. */
export interface SignPage {
  signer: { id: number; name: string; role: string; onBehalfOf: string | null; status: number };
  caseFile: { id: number; title: string; status: number; sensitiveData: boolean; visibilityMode: number };
  state: "pending" | "signed";
  signedAt: string | null;
  signatureMethod: string | null;
  canSign: boolean;
  expireAt: string | null;
  documents: { id: number; title: string; name: string; signable: boolean; maySign: boolean; url: string }[];
  methods: { insecure: string[]; secure: string[] };
  links: { page: string; sign: string; reject: string; secureStart: Record<string, string> };
}

/** Any answer of the signing routes: a page, an action result or an error body. */
export type SigningBody = Partial<SignPage> &
  Partial<Omit<ErrorAnswer, "statusCode">> & { statusCode?: number; status?: string; signerId?: number; redirectUrl?: string | null };

/** A case file created through the real endpoint, with its signing links by signer name. */
export interface SigningCase {
  caseFileId: number;
  status: number;
  links: Record<string, { signerId: number; url: string; token: string }>;
}

/**
 * A new case file per call, even for the same payload: the call's own Idempotency-Key says it is no
 * repeat (without one, a second identical create within a minute is Penneo's aborted_duplicated).
 */
export async function createCase(baseUrl: string, authToken: string, payload: unknown, files: UploadFile[]): Promise<SigningCase> {
  const created = await postCreate(baseUrl, authToken, payload, files, { "Idempotency-Key": randomUUID() });
  if (created.status !== 200) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
  const [job] = created.body.jobs;
  const done = await waitForJob(baseUrl, job!.uuid, job!.payloadHash);
  if (done.jobStatus !== "completed" || !done.result) throw new Error(`job ${done.jobStatus}: ${done.errorMessage}`);
  const links: SigningCase["links"] = {};
  for (const l of done.result.data.signingLinks) links[l.name] = { signerId: l.signerId, url: l.signingLink, token: l.signingLink.split("/").pop()! };
  return { caseFileId: done.result.data.caseFile.id, status: done.result.data.caseFile.status, links };
}

async function answer<T>(res: Response): Promise<HttpAnswer<T>> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a page or a PDF: keep the text
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

export async function getAs<T = SigningBody>(url: string, accept = "application/json", headers: Record<string, string> = {}): Promise<HttpAnswer<T>> {
  return answer(await fetch(url, { headers: { accept, ...headers }, redirect: "manual" }));
}

export async function postJson<T = SigningBody>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer<T>> {
  return answer(
    await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify(body),
      redirect: "manual",
    }),
  );
}

export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

/** Events about one signer, oldest first, optionally of one type. */
export function signerEvents(signerId: number, eventType?: string): Promise<Event[]> {
  return testDb().event.findMany({
    where: { topic: "signer", payload: { path: ["id"], equals: signerId }, ...(eventType ? { eventType } : {}) },
    orderBy: { occurredAt: "asc" },
  });
}

export function caseFileEvents(caseFileId: number, eventType?: string): Promise<Event[]> {
  return testDb().event.findMany({
    where: { topic: "casefile", payload: { path: ["id"], equals: caseFileId }, ...(eventType ? { eventType } : {}) },
    orderBy: { occurredAt: "asc" },
  });
}

/** `name=value` pairs of the Set-Cookie headers, ready for a Cookie header. */
export function cookiesFrom(res: { headers: Headers }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const i = pair!.indexOf("=");
    out[pair!.slice(0, i).trim()] = pair!.slice(i + 1).trim();
  }
  return out;
}

export const cookieHeader = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A real greyscale PNG (a diagonal line), different per seed so content addresses differ. */
export function makePng(width = 64, height = 24, seed = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(width + 1, 255);
    row[0] = 0; // filter: none
    row[1 + ((y * 2 + seed) % width)] = 0;
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
