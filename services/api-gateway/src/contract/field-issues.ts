import type { z } from "zod";
import type { FieldIssue } from "@esign/errors";
import { formatPath } from "@esign/schema";

/**
 * Every zod issue as a field issue of the contract's error body. A custom issue may name its own code
 * in `params.code` (the subscription endpoint's policy: `endpoint_not_allowed`). Unknown keys of a
 * strict object are one issue each, at the key's own path (an unknown filter of a list names itself).
 */
export function fieldIssues(error: z.ZodError, root: ReadonlyArray<PropertyKey> = []): FieldIssue[] {
  return error.issues.flatMap((i) => {
    if (i.code === "unrecognized_keys") {
      return i.keys.map((key) => ({ path: formatPath([...root, ...i.path, key]), code: i.code, message: "is not an allowed property" }));
    }
    const own = i.code === "custom" ? (i.params as { code?: unknown } | undefined)?.code : undefined;
    return [
      {
        path: formatPath([...root, ...i.path]) || "body",
        code: typeof own === "string" ? own : i.code === "invalid_type" && i.message.includes("undefined") ? "required" : i.code,
        message: i.message,
      },
    ];
  });
}
