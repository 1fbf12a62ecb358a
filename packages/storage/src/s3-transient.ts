/*
 * A streamed upload (an upload's staged file) is not retried by the AWS SDK: it cannot read a stream
 * twice. A kept-alive connection that the store closes just as a request goes out on it ("socket hang
 * up", ECONNRESET) then failed the create with a 500 (seen in CI, s3rver closing idle sockets at 5 s).
 * Objects are content-addressed, so putting one again is harmless: the caller makes a fresh stream and
 * tries again, as the SDK does for bodies it holds.
 */

import { STORAGE_UNAVAILABLE_CODE } from "@esign/errors";

/** Transport failures and the store's own transient answers: the request may not have been acted on, or acting again is safe. */
const TRANSIENT_NAMES = new Set(["TimeoutError", "RequestTimeout", "RequestTimeoutException", "SlowDown", "InternalError", "ServiceUnavailable"]);
const TRANSIENT_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "ECONNABORTED"]);
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);

/**
 * The SDK wraps a transport error that is not an Error of this realm (one made in another vm context,
 * as under Jest) as `new Error("AWS SDK error wrapper for <name>: <message>")`: only its message names it.
 */
const WRAPPED_TRANSPORT_ERROR = /^AWS SDK error wrapper for (TimeoutError|Error: (socket hang up|(read|write|connect) (ECONNRESET|EPIPE|ETIMEDOUT)))\b/;

function isTransientS3Error(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { name?: unknown; code?: unknown; message?: unknown; $metadata?: { httpStatusCode?: unknown } };
  if (typeof e.name === "string" && TRANSIENT_NAMES.has(e.name)) return true;
  if (typeof e.code === "string" && TRANSIENT_CODES.has(e.code)) return true;
  if (typeof e.message === "string" && WRAPPED_TRANSPORT_ERROR.test(e.message)) return true;
  const status = e.$metadata?.httpStatusCode;
  return typeof status === "number" && TRANSIENT_STATUSES.has(status);
}

/** Attempts in all, and the pause before each retry (short: a create request is waiting). */
const STREAM_PUT_ATTEMPTS = 3;
const RETRY_PAUSES_MS = [25, 150];

/**
 * A transient failure that was the last try (the SDK's own retries, or ours): the object store is
 * away. Named for @esign/errors, so a request is answered 503 with Retry-After and a job waits for the
 * store instead of spending its attempts; anything else is returned as it is.
 */
export function asStorageUnavailable(err: unknown): unknown {
  if (!isTransientS3Error(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return Object.assign(new Error(`the object store could not be reached: ${message}`), { code: STORAGE_UNAVAILABLE_CODE, cause: err });
}

/** A request the SDK retries itself (a body it holds, or none): its last failure as asStorageUnavailable's. */
export async function orUnavailable<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (err) {
    throw asStorageUnavailable(err);
  }
}

/**
 * Runs `attempt` (which must build its request afresh) until it succeeds, a failure is not transient, or
 * the attempts run out; a transient last failure is thrown as asStorageUnavailable's.
 */
export async function withTransientRetry<T>(attempt: () => Promise<T>, onRetry?: (err: unknown, failedTry: number) => void): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (n >= STREAM_PUT_ATTEMPTS || !isTransientS3Error(err)) throw asStorageUnavailable(err);
      onRetry?.(err, n);
      await new Promise((r) => setTimeout(r, RETRY_PAUSES_MS[n - 1] ?? 150));
    }
  }
}
