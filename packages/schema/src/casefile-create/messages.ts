import type { z } from "zod";
import { acceptsNull, integerSchemas } from "./schemas";

/**
 * The words of the create endpoint's errors: one English message per zod issue, written for the
 * client reading the 400 (schema-level messages such as cpr, cvr and role still win over these).
 */

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  array: "an array",
  object: "an object",
};

function plural(n: number | bigint, word: string): string {
  return `${String(n)} ${word}${n === 1 || n === BigInt(1) ? "" : "s"}`;
}

function sizeMessage(bound: "least" | "most", origin: string, n: number | bigint, inclusive: boolean): string {
  if (origin === "string") return `must be at ${bound} ${plural(n, "character")}`;
  if (origin === "array") return `must contain at ${bound} ${plural(n, "item")}`;
  if (inclusive) return `must be at ${bound} ${String(n)}`;
  return `must be ${bound === "least" ? "greater" : "less"} than ${String(n)}`;
}

/* Per-parse error map: schema-level messages (cpr, cvr, role, ...) still win over it. */
export const errorMap: z.core.$ZodErrorMap = (iss) => {
  switch (iss.code) {
    case "invalid_type": {
      const raisedBy = (set: WeakSet<object>): boolean => (iss.inst !== undefined && set.has(iss.inst)) || (iss.schema !== undefined && set.has(iss.schema));
      const nullable = raisedBy(acceptsNull);
      const expectedType = iss.expected === "number" && raisedBy(integerSchemas) ? "int" : iss.expected;
      const expected = TYPE_NAMES[expectedType] ?? `of type ${expectedType}`;
      return `must be ${expected}${nullable ? " or null" : ""}`;
    }
    case "too_small":
      return sizeMessage("least", iss.origin, iss.minimum, iss.inclusive !== false);
    case "too_big":
      return sizeMessage("most", iss.origin, iss.maximum, iss.inclusive !== false);
    case "invalid_value":
      return `must be one of ${iss.values.map((v) => String(v)).join(", ")}`;
    case "invalid_format":
      if (iss.format === "email") return "must be a valid email address";
      if (iss.format === "url") return "must be a valid URI";
      return "has an invalid format";
    case "unrecognized_keys":
      return "is not an allowed property";
    default:
      return "is invalid";
  }
};
