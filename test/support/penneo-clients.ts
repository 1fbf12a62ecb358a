import { createHash, randomBytes } from "node:crypto";
import { UsernameToken } from "wsse";

/*
 * What Penneo's published clients put on the wire, rebuilt byte for byte in our own words so that
 * the compatibility suites send exactly that (sources named on each helper; the clients themselves
 * are not part of this repository). docs/penneo-compatibility.md lists what each one uses.
 */

export interface ApiCredentials {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  apiSecret: string;
}

const sha1 = (...parts: Buffer[]) => createHash("sha1").update(Buffer.concat(parts)).digest();
const utf8 = (s: string) => Buffer.from(s, "utf8");

/**
 * Penneo-api-postman, request 1's pre-request script: a 20-byte random nonce, `created_at` as ISO
 * 8601 (`new Date().toISOString()`), digest = Base64(SHA1(nonce + createdAt + apiSecret)), a JSON body.
 */
export function postmanApiKeysBody(c: ApiCredentials): Record<string, string> {
  const nonce = randomBytes(20);
  const createdAt = new Date().toISOString();
  return {
    client_id: c.clientId,
    client_secret: c.clientSecret,
    grant_type: "api_keys",
    key: c.apiKey,
    nonce: nonce.toString("base64"),
    created_at: createdAt,
    digest: sha1(nonce, utf8(createdAt), utf8(c.apiSecret)).toString("base64"),
  };
}

/** PHP's `D M j Y H:i:s \G\M\TO` (sdk-php OAuthApi::formatApiKeyDigestCreatedAt), for a UTC clock. */
export function phpDigestCreatedAt(d = new Date()): string {
  const [day, , month] = d.toUTCString().split(" ");
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${day!.replace(",", "")} ${month} ${d.getUTCDate()} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} GMT+0000`;
}

/** sdk-php OAuthApi::buildApiKeyExchangePayload: a 64-byte nonce and the PHP date format above. */
export function phpApiKeysBody(c: ApiCredentials): Record<string, string> {
  const nonce = randomBytes(64);
  const createdAt = phpDigestCreatedAt();
  return {
    grant_type: "api_keys",
    client_id: c.clientId,
    client_secret: c.clientSecret,
    key: c.apiKey,
    created_at: createdAt,
    nonce: nonce.toString("base64"),
    digest: sha1(nonce, utf8(createdAt), utf8(c.apiSecret)).toString("base64"),
  };
}

/** sdk-php OAuthApi::buildTokenRefreshPayload. */
export function phpRefreshBody(c: ApiCredentials, refreshToken: string): Record<string, string> {
  return {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    redirect_uri: "http://localhost:8765/callback",
    client_id: c.clientId,
    client_secret: c.clientSecret,
  };
}

/** PHP's `date('r')` (RFC 2822) in UTC. */
function phpDateR(d = new Date()): string {
  return d.toUTCString().replace("GMT", "+0000");
}

/**
 * sdk-php WsseMiddleware: the nonce is `hash('sha512', uniqid('', true))` (128 hex characters),
 * used as base64 when hashing (PHP's base64_decode of those characters), `Created` is `date('r')`;
 * it sends `Authorization: WSSE profile="UsernameToken"` beside `X-WSSE`.
 */
export function phpWsseHeaders(apiKey: string, apiSecret: string, created = phpDateR()): Record<string, string> {
  const nonce = createHash("sha512").update(randomBytes(16)).digest("hex");
  const digest = sha1(Buffer.from(nonce, "base64"), utf8(created), utf8(apiSecret)).toString("base64");
  return {
    Authorization: 'WSSE profile="UsernameToken"',
    "X-WSSE": `UsernameToken Username="${apiKey}", PasswordDigest="${digest}", Nonce="${nonce}", Created="${created}"`,
  };
}

/**
 * sdk-net WSSEAuthenticator: 16 letters and digits as the nonce, sent base64 of their UTF-8;
 * `Created` as `yyyy-MM-ddTHH:mm:ssZ`; digest = base64(sha1(UTF-8 of (nonce + created + password))).
 */
export function dotnetWsseHeaders(apiKey: string, apiSecret: string, created = `${new Date().toISOString().slice(0, 19)}Z`): Record<string, string> {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const plain = Array.from(randomBytes(16), (b) => chars[b % (chars.length - 1)]).join("");
  const nonce = utf8(plain).toString("base64");
  const digest = sha1(utf8(Buffer.from(nonce, "base64").toString("utf8") + created + apiSecret)).toString("base64");
  return {
    Authorization: 'WSSE profile="UsernameToken"',
    "X-WSSE": `UsernameToken Username="${apiKey}", PasswordDigest="${digest}", Nonce="${nonce}", Created="${created}"`,
  };
}

/**
 * Penneo's readme page "Using WSSE": a nonce of 8 random bytes, sent base64; `Created` ISO 8601;
 * digest = base64(sha1(nonce bytes + created + secret)). `nonce` and `created` override for replays.
 */
export function readmeWsseHeaders(apiKey: string, apiSecret: string, opts: { nonce?: Buffer; created?: string } = {}): Record<string, string> {
  const nonce = opts.nonce ?? randomBytes(8);
  const created = opts.created ?? new Date().toISOString();
  const digest = sha1(nonce, utf8(created), utf8(apiSecret)).toString("base64");
  return { "X-WSSE": `UsernameToken Username="${apiKey}", PasswordDigest="${digest}", Nonce="${nonce.toString("base64")}", Created="${created}"` };
}

/** api-utils' JavaScript samples: the `wsse` npm package with `nonceBase64: true`, X-WSSE only. */
export function wssePackageHeaders(apiKey: string, apiSecret: string): Record<string, string> {
  return { "X-WSSE": new UsernameToken({ username: apiKey, password: apiSecret }).getWSSEHeader({ nonceBase64: true }) };
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  /** The body as bytes (a PDF stays intact). */
  buf: Buffer;
  /** The body parsed as JSON, or undefined (a PDF, a 204). */
  json: unknown;
}

/** One request as a client sends it, the answer kept raw: the compatibility suites check bytes and shapes. */
export async function sendRaw(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string | FormData): Promise<RawAnswer> {
  const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const buf = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(buf.toString("utf8"));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, buf, json };
}

/**
 * The integrator's own create and poll around a published client's authentication: the create
 * endpoint with `auth`'s headers, then the job polled every `pollMs` until it is completed.
 */
export async function createAndAwaitCaseFile(
  baseUrl: string,
  auth: Record<string, string>,
  data: unknown,
  file: { name: string; content: Buffer },
  pollMs = 250,
): Promise<number> {
  const form = new FormData();
  form.append("data", typeof data === "string" ? data : JSON.stringify(data));
  form.append("files", new Blob([file.content], { type: "application/pdf" }), file.name);
  const created = await sendRaw(baseUrl, "POST", "/send/api/v1/casefiles/20251022/create", auth, form);
  if (created.status !== 200) throw new Error(`create answered ${created.status}: ${created.buf.toString()}`);
  const { uuid, payloadHash } = (created.json as { jobs: { uuid: string; payloadHash: string }[] }).jobs[0]!;
  for (let i = 0; i < 120; i++) {
    const poll = await sendRaw(
      baseUrl,
      "POST",
      "/send/api/v1/queue/public/status",
      { "Content-Type": "application/json" },
      JSON.stringify({ uuid, payloadHash }),
    );
    const job = poll.json as { jobStatus: string; errorMessage: string | null; result: { data: { caseFile: { id: number } } } | null };
    if (job.jobStatus === "completed") return job.result!.data.caseFile.id;
    if (job.jobStatus !== "pending" && job.jobStatus !== "processing") throw new Error(`job ${job.jobStatus}: ${job.errorMessage}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`job ${uuid} not completed`);
}

/** A Link header's relation as sdk-net's PaginationUtil reads it: page, per_page, and the URL it follows. */
export interface NetPageLink {
  page: number;
  perPage: number;
  url: string;
}

/**
 * sdk-net's PaginationUtil.ParseResponseHeadersForPagination (Src/Penneo/Util/PaginationUtil.cs),
 * rebuilt: the header split on `,`; each part's URL is what comes before the character before its
 * last `;`; its query split on `&` and `=` into a dictionary (a duplicate key throws); `page` and
 * `per_page` parsed as int32 (a missing or non-numeric one throws).
 */
export function netPagination(header: string): Record<string, NetPageLink> {
  const out: Record<string, NetPageLink> = {};
  for (const relation of header.split(",")) {
    const rel = /rel="(.*)"/.exec(relation)?.[1] ?? "";
    const url = relation.slice(0, relation.lastIndexOf(";") - 1).trim();
    const pairs = url
      .slice(url.indexOf("?") + 1)
      .split("&")
      .map((p) => p.split("="));
    const keys = pairs.map(([k]) => k);
    if (new Set(keys).size !== keys.length) throw new Error("ToDictionary: duplicate key");
    const params = Object.fromEntries(pairs) as Record<string, string>;
    const page = Number.parseInt(params.page ?? "x", 10);
    const perPage = Number.parseInt(params.per_page ?? "x", 10);
    if (Number.isNaN(page) || Number.isNaN(perPage)) throw new Error("int.Parse");
    out[rel] = { page, perPage, url: url.replace(/^</, "") };
  }
  return out;
}
