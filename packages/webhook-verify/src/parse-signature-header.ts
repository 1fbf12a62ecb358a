/** Why an `X-Event-Signature` value could not be used. */
export type ParseFailureReason = "malformed_signature" | "missing_component";

export interface ParsedSignatureHeader {
  /** `t`: unix seconds when the signature was made. */
  timestamp: number;
  /** `h` exactly as written (it is part of the signed string). */
  signedHeaders: string;
  /** The header names of `h`, lowercased, in order. */
  signedHeaderNames: readonly string[];
  /** `v1`: hex HMAC-SHA256 digest, lowercased (the first, when there are several). */
  signature: string;
  /** Every `v1` in order, lowercased: two during a secret rotation (old secret's, then new one's). */
  signatures: readonly string[];
  /** Every `key=value` component, including ones this version does not use (a repeated `v1`: the first). */
  components: ReadonlyMap<string, string>;
}

export type ParseSignatureResult = { ok: true; header: ParsedSignatureHeader } | { ok: false; reason: ParseFailureReason; message: string };

const REQUIRED_COMPONENTS = ["t", "h", "v1"] as const;
// RFC 9110 token characters: what a header name may consist of.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const UNIX_SECONDS = /^\d{1,15}$/;
const HEX = /^[0-9a-fA-F]+$/;

function malformed(message: string): ParseSignatureResult {
  return { ok: false, reason: "malformed_signature", message };
}

/**
 * Parses `t=<unix seconds>,h=<header names>,v1=<hex>` into its components.
 * Pairs are comma-separated; whitespace around a pair is ignored; unknown keys are kept and
 * otherwise ignored. `v1` may repeat (one per secret during a rotation). An empty pair, a pair
 * without `=`, an empty key or value, any other repeated key or an invalid t/h/v1 value is
 * `malformed_signature`; a missing t, h or v1 is `missing_component`.
 */
export function parseSignatureHeader(value: string | undefined | null): ParseSignatureResult {
  if (typeof value !== "string" || value.trim() === "") {
    return malformed("X-Event-Signature is empty");
  }

  const components = new Map<string, string>();
  const v1s: string[] = [];
  for (const rawPair of value.split(",")) {
    const pair = rawPair.trim();
    const eq = pair.indexOf("=");
    if (eq <= 0) return malformed(`X-Event-Signature has a component that is not key=value: "${pair}"`);
    const key = pair.slice(0, eq).trim();
    const componentValue = pair.slice(eq + 1).trim();
    if (key === "" || componentValue === "") {
      return malformed(`X-Event-Signature has an empty key or value in "${pair}"`);
    }
    if (key === "v1") v1s.push(componentValue);
    if (components.has(key) && key !== "v1") return malformed(`X-Event-Signature repeats the component "${key}"`);
    if (!components.has(key)) components.set(key, componentValue);
  }

  const missing = REQUIRED_COMPONENTS.filter((key) => !components.has(key));
  if (missing.length > 0) {
    return { ok: false, reason: "missing_component", message: `X-Event-Signature lacks ${missing.join(", ")}` };
  }
  const t = components.get("t") ?? "";
  const h = components.get("h") ?? "";

  if (!UNIX_SECONDS.test(t)) return malformed("X-Event-Signature t is not a unix timestamp in seconds");
  const signedHeaderNames = h.split(/\s+/).filter((name) => name !== "");
  if (signedHeaderNames.length === 0 || !signedHeaderNames.every((name) => HEADER_NAME.test(name))) {
    return malformed("X-Event-Signature h is not a space-separated list of header names");
  }
  if (!v1s.every((v1) => HEX.test(v1))) return malformed("X-Event-Signature v1 is not hexadecimal");
  const signatures = v1s.map((v1) => v1.toLowerCase());

  return {
    ok: true,
    header: {
      timestamp: Number(t),
      signedHeaders: h,
      signedHeaderNames: signedHeaderNames.map((name) => name.toLowerCase()),
      signature: signatures[0] ?? "",
      signatures,
      components,
    },
  };
}
