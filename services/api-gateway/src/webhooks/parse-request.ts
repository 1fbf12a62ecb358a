import type { z } from "zod";
import { AppError, type FieldIssue } from "@esign/errors";
import { zodIssues } from "../http/zod-issues";

/** Zod issues as field issues; a custom issue may name its own code in params.code. */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  const mapped = zodIssues(error);
  return mapped.map((issue, i) => {
    const source = error.issues[i];
    const own = source?.code === "custom" ? (source.params as { code?: unknown } | undefined)?.code : undefined;
    return typeof own === "string" ? { ...issue, code: own } : issue;
  });
}

/** Parses (async: some checks resolve DNS) or throws a 400 that lists every failing field. */
export async function parseOr400<S extends z.ZodType>(schema: S, input: unknown, message: string): Promise<z.output<S>> {
  const parsed = await schema.safeParseAsync(input);
  if (!parsed.success) throw new AppError("validation_failed", message, fieldIssues(parsed.error));
  return parsed.data;
}
