import { createHmac } from "node:crypto";

/** Headers that every signature must cover (`h` names at least these). */
export const REQUIRED_SIGNED_HEADERS: readonly string[] = ["x-event-id", "x-event-type"];

export interface SignedContentParts {
  /** `t`: unix seconds, as written in the header. */
  timestamp: number;
  /** `h` exactly as written in the header (space-separated header names). */
  signedHeaders: string;
  /** Values of the headers named in `h`, in that order. */
  headerValues: readonly string[];
  /** The raw request body, byte for byte as sent. */
  rawBody: string | Buffer;
}

/**
 * The signed string: `t + "." + h + "." + header values joined by "." + "." + rawBody`,
 * as bytes (a string body is taken as UTF-8).
 */
export function buildSignedContent(parts: SignedContentParts): Buffer {
  const prefix = `${parts.timestamp}.${parts.signedHeaders}.${parts.headerValues.join(".")}.`;
  const body = typeof parts.rawBody === "string" ? Buffer.from(parts.rawBody, "utf8") : parts.rawBody;
  return Buffer.concat([Buffer.from(prefix, "utf8"), body]);
}

/** Lowercase hex HMAC-SHA256 of the signed content, keyed with the subscription secret (UTF-8). */
export function computeSignature(secret: string, signedContent: Buffer): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(signedContent).digest("hex");
}
