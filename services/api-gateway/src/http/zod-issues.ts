import type { z } from "zod";
import type { FieldIssue } from "@esign/errors";
import { formatPath } from "@esign/schema";

/** Every zod issue as a field issue of the contract's error body. */
export function zodIssues(error: z.ZodError, root: ReadonlyArray<PropertyKey> = []): FieldIssue[] {
  return error.issues.map((i) => ({
    path: formatPath([...root, ...i.path]) || "body",
    code: i.code === "invalid_type" && i.message.includes("undefined") ? "required" : i.code,
    message: i.message,
  }));
}
