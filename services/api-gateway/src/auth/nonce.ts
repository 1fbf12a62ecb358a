import { createHash } from "node:crypto";
import type { RedisConnection } from "@esign/queue";

/**
 * Shortest nonce accepted, in decoded bytes: 8, what Penneo's own "Using WSSE" sample draws. The
 * published clients send 16 (sdk-net's WSSE), 20 (Penneo's Postman collection), 64 (sdk-php's
 * api_keys) and 96 (sdk-php's WSSE). Short nonces are safe because a nonce is good once per API key
 * (claimNonce) and only within the `Created` window; its secrecy is not what protects the digest.
 */
export const MIN_NONCE_BYTES = 8;
/**
 * Longest nonce accepted, in characters as sent. Penneo documents at most 64; sdk-php's
 * WsseMiddleware, a published Penneo client we stay compatible with, sends 128 hex characters, so 128.
 */
export const MAX_NONCE_CHARS = 128;

/** How long the api_keys grant accepts a `created_at` away from our clock, either way (the contract: 5 minutes). */
export const CLOCK_SKEW_SECONDS = 300;
/** How long WSSE accepts a `Created` away from our clock, either way: Penneo's own number for WSSE. */
export const WSSE_SKEW_SECONDS = 60;

/**
 * The nonce's bytes, the one spelling of it that counts: base64 and base64url, with or without
 * padding or whitespace, decode to the same bytes, and both the digest and the replay check use
 * them, so a captured nonce re-spelled is the same nonce. Null when too short (or absurdly long).
 */
export function decodeNonce(nonce: string): Buffer | null {
  if (nonce.length > MAX_NONCE_CHARS) return null;
  const raw = Buffer.from(nonce, "base64");
  return raw.length >= MIN_NONCE_BYTES ? raw : null;
}

/** Milliseconds since the epoch of a `created` value: unix seconds, ISO 8601, RFC 2822 or JS Date text. */
export function parseCreated(value: string): number | null {
  const ms = /^\d{1,12}$/.test(value) ? Number(value) * 1000 : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

export function withinSkew(createdMs: number, skewSeconds = CLOCK_SKEW_SECONDS, nowMs = Date.now()): boolean {
  return Math.abs(nowMs - createdMs) <= skewSeconds * 1000;
}

/**
 * True the first time a nonce is seen for this API key within the widest skew window plus a margin;
 * Redis makes that hold across gateway replicas. One store for the api_keys grant and X-WSSE (issue
 * 26, item 8): both sign the same base64(sha1(nonce + created + apiSecret)), so a digest spent at
 * /oauth/token must not work again as a header, nor the other way round. A nonce older than the
 * window is refused by its timestamp, so the key may expire then.
 */
export async function claimNonce(redis: RedisConnection, keyPrefix: string, apiKey: string, raw: Buffer): Promise<boolean> {
  const digest = createHash("sha256").update(raw).digest("hex");
  const fresh = await redis.set(`${keyPrefix}:nonce:apikey:${apiKey}:${digest}`, "1", "EX", CLOCK_SKEW_SECONDS * 2 + 60, "NX");
  return fresh === "OK";
}

/** base64(sha1(rawNonce + created + secret)): the digest of Penneo's api_keys grant and of WSSE. */
export function passwordDigest(raw: Buffer, created: string, secret: string): Buffer {
  return createHash("sha1")
    .update(Buffer.concat([raw, Buffer.from(created, "utf8"), Buffer.from(secret, "utf8")]))
    .digest();
}
