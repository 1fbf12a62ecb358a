import { timingSafeEqual } from "node:crypto";
import type { EventIdStore } from "./event-id-store";
import { getHeader, type HeaderRecord } from "./header-lookup";
import { parseSignatureHeader } from "./parse-signature-header";
import { buildSignedContent, computeSignature, REQUIRED_SIGNED_HEADERS } from "./signed-content";

export type VerifyFailureReason =
  | "malformed_signature"
  | "missing_component"
  | "timestamp_out_of_tolerance"
  | "signature_mismatch"
  | "missing_header"
  | "replayed_event";

export type VerifyResult = { ok: true; eventId: string; eventType: string; timestamp: number } | { ok: false; reason: VerifyFailureReason; message: string };

export interface VerifyWebhookOptions {
  /** The subscription secret, or several during a rotation (any one may match). */
  secret: string | readonly string[];
  /** The request body exactly as received (before any JSON parsing). */
  rawBody: string | Buffer;
  /** The request headers, e.g. Node's `req.headers`; names are matched case-insensitively. */
  headers: HeaderRecord;
  /** Allowed difference between now and `t`, either way. Default 300 (five minutes). */
  toleranceSeconds?: number;
  /** Current time, as a Date or as unix seconds. Defaults to the system clock. */
  now?: Date | number;
  /** Step 4: remembers accepted event ids. Without one, replays are NOT detected. */
  eventIdStore?: EventIdStore;
  /** How long an accepted id is remembered. Default `2 * toleranceSeconds` (at least 1), which
   * outlasts every signature that could still pass the timestamp check. */
  eventIdTtlSeconds?: number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;

function fail(reason: VerifyFailureReason, message: string): VerifyResult {
  return { ok: false, reason, message };
}

function nowInSeconds(now: Date | number | undefined): number {
  const seconds = now === undefined ? Math.floor(Date.now() / 1000) : now instanceof Date ? Math.floor(now.getTime() / 1000) : now;
  // A NaN clock would make every timestamp comparison false, i.e. accept any t: refuse it.
  if (!Number.isFinite(seconds)) throw new TypeError("verifyWebhook: now must be a valid Date or unix seconds");
  return seconds;
}

/** Constant-time comparison of two hex strings; unequal lengths are a mismatch, never a throw. */
function hexEquals(expected: string, received: string): boolean {
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(received, "utf8");
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}

/**
 * Verifies a delivery, in the spec's order: 1 parse `X-Event-Signature`, 2 timestamp tolerance,
 * 3 HMAC-SHA256 comparison in constant time, 4 event-id de-duplication (only after 1-3 pass).
 * Resolves with a result; rejects only on invalid options or when `eventIdStore` throws.
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<VerifyResult> {
  const secrets = typeof options.secret === "string" ? [options.secret] : [...options.secret];
  if (secrets.length === 0 || secrets.some((secret) => typeof secret !== "string" || secret === "")) {
    throw new TypeError("verifyWebhook: secret must be a non-empty string or a non-empty array of them");
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError("verifyWebhook: toleranceSeconds must be a non-negative number");
  }
  const ttlOption = options.eventIdTtlSeconds;
  if (ttlOption !== undefined && (!Number.isFinite(ttlOption) || ttlOption <= 0)) {
    throw new TypeError("verifyWebhook: eventIdTtlSeconds must be a positive number");
  }
  const now = nowInSeconds(options.now);
  const { headers, rawBody } = options;

  // Step 1: parse, and insist that the signature covers the event id and type.
  const signatureHeader = getHeader(headers, "x-event-signature");
  if (signatureHeader === undefined) return fail("missing_header", "X-Event-Signature header is missing");
  const parsed = parseSignatureHeader(signatureHeader);
  if (!parsed.ok) return fail(parsed.reason, parsed.message);
  const { timestamp, signedHeaders, signedHeaderNames, signatures } = parsed.header;
  const uncovered = REQUIRED_SIGNED_HEADERS.filter((name) => !signedHeaderNames.includes(name));
  if (uncovered.length > 0) {
    return fail("malformed_signature", `X-Event-Signature h does not cover ${uncovered.join(", ")}`);
  }

  // Step 2: timestamp within tolerance, either way.
  if (Math.abs(now - timestamp) > tolerance) {
    return fail("timestamp_out_of_tolerance", `X-Event-Signature t is more than ${tolerance} s from now`);
  }

  // Step 3: recompute the HMAC over the signed string and compare in constant time.
  const headerValues: string[] = [];
  for (const name of signedHeaderNames) {
    const value = getHeader(headers, name);
    if (value === undefined || value === "") return fail("missing_header", `signed header ${name} is missing`);
    headerValues.push(value);
  }
  const content = buildSignedContent({ timestamp, signedHeaders, headerValues, rawBody });
  let matched = false;
  for (const secret of secrets) {
    const expected = computeSignature(secret, content);
    // No early exit: every secret and every v1 (two during a rotation's overlap) is tried, so timing
    // does not tell which one matched.
    for (const signature of signatures) if (hexEquals(expected, signature)) matched = true;
  }
  if (!matched) return fail("signature_mismatch", "X-Event-Signature v1 does not match the request");

  // Both are signed (step 1 made sure h covers them) and present (checked above).
  const eventId = getHeader(headers, "x-event-id") ?? "";
  const eventType = getHeader(headers, "x-event-type") ?? "";

  // Step 4: reject an event id already accepted.
  if (options.eventIdStore !== undefined) {
    const ttl = ttlOption ?? Math.max(1, Math.ceil(2 * tolerance));
    const isNew = await options.eventIdStore.markIfNew(eventId, ttl);
    if (!isNew) return fail("replayed_event", `event ${eventId} was already received`);
  }

  return { ok: true, eventId, eventType, timestamp };
}
