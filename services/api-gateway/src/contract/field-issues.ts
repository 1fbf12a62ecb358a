import type { z } from "zod";
import type { FieldIssue } from "@esign/errors";
import { formatPath } from "@esign/schema";

/** A missing field, in zod's words ("received undefined") or an error map's ("name is required"). */
const MISSING = /undefined|is required$/;

/**
 * Every zod issue as a field issue of the contract's error body. A custom issue may name its own code
 * in `params.code` (the subscription endpoint's policy: `endpoint_not_allowed`).
 */
export function fieldIssues(error: z.ZodError, root: ReadonlyArray<PropertyKey> = []): FieldIssue[] {
  return error.issues.map((i) => {
    const own = i.code === "custom" ? (i.params as { code?: unknown } | undefined)?.code : undefined;
    return {
      path: formatPath([...root, ...i.path]) || "body",
      code: typeof own === "string" ? own : i.code === "invalid_type" && MISSING.test(i.message) ? "required" : i.code,
      message: i.message,
    };
  });
}
