import { getHeader, type HeaderRecord } from "./header-lookup";
import { buildSignedContent, computeSignature, REQUIRED_SIGNED_HEADERS } from "./signed-content";

export interface SignDeliveryOptions {
  /**
   * The subscription secret (UTF-8), or several during a secret rotation's overlap: one `v1=` entry
   * per secret, in the order given (the dispatcher puts the old secret first, then the new one).
   */
  secret: string | readonly string[];
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
 * `t=<unix seconds>,h=<space-separated lowercase header names>,v1=<hex HMAC-SHA256>` (one `v1` per
 * secret: a receiver reading a single `v1` reads the first).
 * Throws a TypeError on invalid input (no secret, a bad timestamp, a signed header that is
 * missing, or `signedHeaders` not covering x-event-id and x-event-type).
 */
export function signDelivery(options: SignDeliveryOptions): string {
  const { body, headers } = options;
  const secrets = typeof options.secret === "string" ? [options.secret] : [...options.secret];
  if (secrets.length === 0 || secrets.some((secret) => typeof secret !== "string" || secret === "")) {
    throw new TypeError("signDelivery: secret must be a non-empty string or a non-empty array of them");
  }

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
  const content = buildSignedContent({ timestamp, signedHeaders: h, headerValues, rawBody: body });
  const v1 = secrets.map((secret) => `v1=${computeSignature(secret, content)}`).join(",");
  return `t=${timestamp},h=${h},${v1}`;
}
