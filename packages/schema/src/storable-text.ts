import { formatPath, type FieldError } from "./field-error";

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why this text cannot be stored as it is, or null. PostgreSQL's text and jsonb refuse both. */
export function unstorableText(value: string): { code: string; message: string } | null {
  if (value.includes("\u0000")) return { code: "nul_character", message: "must not contain the NUL character (U+0000)" };
  if (LONE_SURROGATE.test(value)) return { code: "invalid_unicode", message: "must be valid Unicode text (a lone UTF-16 surrogate was found)" };
  return null;
}

const MAX_DEPTH = 64;

/**
 * Every string (and every object key) in a parsed request that PostgreSQL could not store: a NUL
 * character, or a lone UTF-16 surrogate (JSON's "\ud800" escape produces one). Each is a 400 naming
 * its field, rather than a 500 from the database or text silently altered on the way in.
 */
export function unstorableTextIssues(value: unknown, base: ReadonlyArray<PropertyKey> = []): FieldError[] {
  const issues: FieldError[] = [];
  const walk = (v: unknown, path: PropertyKey[], depth: number): void => {
    if (typeof v === "string") {
      const bad = unstorableText(v);
      if (bad) issues.push({ path: formatPath(path) || "body", ...bad });
      return;
    }
    if (depth > MAX_DEPTH || typeof v !== "object" || v === null) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        walk(item, [...path, i], depth + 1);
      });
      return;
    }
    for (const [key, item] of Object.entries(v)) {
      const badKey = unstorableText(key);
      if (badKey) issues.push({ path: formatPath(path) || "body", code: badKey.code, message: `a property name ${badKey.message}` });
      else walk(item, [...path, key], depth + 1);
    }
  };
  walk(value, [...base], 0);
  return issues;
}
