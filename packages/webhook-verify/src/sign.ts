import { getHeader, type HeaderRecord } from "./header-lookup";
import { buildSignedContent, computeSignature, REQUIRED_SIGNED_HEADERS } from "./signed-content";

export interface SignDeliveryOptions {
  /** The subscription secret (UTF-8). */
  secret: string;
  /** The exact body that will be sent. */
  body: string | Buffer;
  /** The delivery's headers; must hold every header named in `signedHeaders`. Any case. */
  headers: HeaderRecord;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
  /** Header names to sign, in order; defaults to `["x-event-id", "x-event-type"]`. */
  signedHeaders?: readonly string[];
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Signs a delivery and returns the value for `X-Event-Signature`:
 * `t=<unix seconds>,h=<space-separated lowercase header names>,v1=<hex HMAC-SHA256>`.
 * Throws a TypeError on invalid input (no secret, a bad timestamp, a signed header that is
 * missing, or `signedHeaders` not covering x-event-id and x-event-type).
 */
export function signDelivery(options: SignDeliveryOptions): string {
  const { secret, body, headers } = options;
  if (typeof secret !== "string" || secret === "") throw new TypeError("signDelivery: secret must be a non-empty string");

  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError("signDelivery: timestamp must be a non-negative integer of unix seconds");
  }

  const names = (options.signedHeaders ?? REQUIRED_SIGNED_HEADERS).map((name) => name.toLowerCase());
  for (const name of names) {
    if (!HEADER_NAME.test(name)) throw new TypeError(`signDelivery: "${name}" is not a header name`);
  }
  for (const required of REQUIRED_SIGNED_HEADERS) {
    if (!names.includes(required)) throw new TypeError(`signDelivery: signedHeaders must include ${required}`);
  }

  const headerValues = names.map((name) => {
    const value = getHeader(headers, name);
    if (value === undefined || value === "") throw new TypeError(`signDelivery: header ${name} is missing`);
    return value;
  });

  const h = names.join(" ");
  const v1 = computeSignature(secret, buildSignedContent({ timestamp, signedHeaders: h, headerValues, rawBody: body }));
  return `t=${timestamp},h=${h},v1=${v1}`;
}
