// Keys whose values must never reach a log line, whatever the caller passes.
const SENSITIVE =
  /(pass(word)?|secret|token|authorization|signature|api[-_]?key|encryption[-_]?key|private[-_]?key|credential|jwt|digest|cookie|nonce|cpr|ssn|socialSecurity)/i;
// Personal data kept as signing evidence (IP address, user agent): stored with the signer, never logged.
// Anchored, so "ip" does not catch "recipient", "description" or "zip".
const PERSONAL = /^(ip|ipAddress|clientIp|remoteAddress|actionIp|userAgent|user-agent|actionUserAgent)$/i;
const REDACTED = "[redacted]";

/*
 * Secrets that hide inside strings (a message, an error text, a URL): each pattern keeps what makes
 * the line useful (the path, the header's name) and masks the credential.
 */
const IN_STRING: ReadonlyArray<readonly [RegExp, string]> = [
  // Signing links and tracking pixels are bearer credentials (see the gateway's request log).
  [/\/sign\/[A-Za-z0-9_-]+/g, "/sign/[redacted]"],
  [/\/t\/[A-Za-z0-9_-]{16,}/g, "/t/[redacted]"],
  // A header written out in a string: `Authorization: Bearer ...`, `"x-auth-token":"..."`.
  [/\b(authorization|x-auth-token|x-event-signature|set-cookie|cookie)(["']?\s*[:=]\s*["']?)[^"'\r\n]+/gi, `$1$2${REDACTED}`],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, `Bearer ${REDACTED}`],
  [/\bBasic\s+[A-Za-z0-9+/=]{12,}/g, `Basic ${REDACTED}`],
  // Any JWT, wherever it turns up: header and payload are base64url JSON, so both start with eyJ.
  [/\beyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g, REDACTED],
  [/\bwhsec_[A-Za-z0-9_-]+/g, `whsec_${REDACTED}`],
  // The password of a connection URL (smtp://user:pass@host, postgresql://user:pass@host).
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)[^\s@/]+@/gi, `$1${REDACTED}@`],
  [/([?&](?:token|access_token|refresh_token|code|secret|client_secret|signature|sig|key|api_key|apikey|password)=)[^&\s#"']+/gi, `$1${REDACTED}`],
];

/*
 * Every pattern above needs one of these to match (a slash, a colon or an equals sign, or one of the
 * words): text without any (ids, names, most messages) skips the nine replaces. Logging is on every
 * request's path, and the replaces were most of a line's cost.
 */
const MAY_HOLD_CREDENTIAL = /[/:=]|bearer|basic|eyJ|whsec_/i;

/** `text` with credentials found inside it masked; other text is left as it is. */
export function scrubString(text: string): string {
  if (!MAY_HOLD_CREDENTIAL.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of IN_STRING) out = out.replace(pattern, replacement);
  return out;
}

/** Deep copy of `value` with sensitive keys masked and credentials inside strings scrubbed; cycles and depth are bounded. */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return scrubString(value);
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    return { name: value.name, message: scrubString(value.message), stack: value.stack === undefined ? undefined : scrubString(value.stack) };
  }
  if (seen.has(value) || depth > 8) return "[truncated]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1, seen));
  if (Buffer.isBuffer(value)) return `[buffer ${value.length} bytes]`;
  if (value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = (SENSITIVE.test(k) || PERSONAL.test(k)) && v !== undefined && v !== null ? REDACTED : redact(v, depth + 1, seen);
  }
  return out;
}
