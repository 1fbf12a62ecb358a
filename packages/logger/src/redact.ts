// Keys whose values must never reach a log line, whatever the caller passes.
const SENSITIVE = /(pass(word)?|secret|token|authorization|signature|api[-_]?key|digest|cookie|nonce|cpr|ssn|socialSecurity)/i;
const REDACTED = "[redacted]";

/** Deep copy of `value` with sensitive keys masked; cycles and depth are bounded. */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (seen.has(value) || depth > 8) return "[truncated]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1, seen));
  if (Buffer.isBuffer(value)) return `[buffer ${value.length} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SENSITIVE.test(k) && v !== undefined && v !== null ? REDACTED : redact(v, depth + 1, seen);
  }
  return out;
}
