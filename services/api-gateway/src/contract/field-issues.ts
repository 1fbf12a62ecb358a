import type { z } from "zod";
import type { FieldIssue } from "@esign/errors";
import { formatPath } from "@esign/schema";

/** A missing field, in zod's words ("received undefined") or an error map's ("name is required"). */
const MISSING = /undefined|is required$/;

/**
 * Every zod issue as a field issue of the contract's error body. A custom issue may name its own code
 * in `params.code` (the subscription endpoint's policy: `endpoint_not_allowed`); an unknown key of a
 * strict object (a query filter, a body property) is named by its own path.
 */
export function fieldIssues(error: z.ZodError, root: ReadonlyArray<PropertyKey> = []): FieldIssue[] {
  return error.issues.flatMap((i) => {
    // A strict object's unknown keys: one entry per key, at the key (as the create payload names them).
    if (i.code === "unrecognized_keys") {
      return i.keys.map((key) => ({ path: formatPath([...root, ...i.path, key]), code: "unrecognized_key", message: "is not an allowed property" }));
    }
    const own = i.code === "custom" ? (i.params as { code?: unknown } | undefined)?.code : undefined;
    return {
      path: formatPath([...root, ...i.path]) || "body",
      code: typeof own === "string" ? own : i.code === "invalid_type" && MISSING.test(i.message) ? "required" : i.code,
      message: i.message,
    };
  });
}
