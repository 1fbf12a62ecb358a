import type { AttemptCause } from "@esign/webhooks";

// Node and OpenSSL codes of a failed TLS handshake or an unacceptable certificate.
const TLS_CODES = new Set([
  "EPROTO",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "HOSTNAME_MISMATCH",
]);

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "ENODATA", "ESERVFAIL", "ENOTIMP", "EREFUSED"]);

interface CodedError {
  code?: unknown;
  cause?: unknown;
  message?: unknown;
}

/** Every `code` along the error's cause chain (got wraps the socket's error in its own). */
function codesOf(err: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const { code, cause } = current as CodedError;
    if (typeof code === "string") codes.push(code);
    current = cause;
  }
  return codes;
}

/** Maps a transport error (no HTTP status was received) to the attempt log's cause. */
export function classifyTransportError(err: unknown): AttemptCause {
  const codes = codesOf(err);
  if (codes.includes("EBLOCKED")) return "blocked_address";
  if (codes.includes("ECONNREFUSED")) return "connection_refused";
  if (codes.some((c) => DNS_CODES.has(c))) return "dns_error";
  if (codes.some((c) => TLS_CODES.has(c) || c.startsWith("ERR_SSL_") || c.startsWith("ERR_TLS_"))) return "tls_error";
  const message = err instanceof Error ? err.message : "";
  if (/\b(SSL|TLS)\b|certificate/i.test(message)) return "tls_error";
  return "network_error";
}
