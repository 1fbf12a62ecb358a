import { z } from "zod";
import { AppError } from "@esign/errors";

/**
 * Position after the last item of a page: (createdAt, id). The timestamp is carried as PostgreSQL's
 * own microsecond text, because a JS Date keeps only milliseconds and would skip or repeat rows that
 * share a millisecond. Opaque to clients: base64url of JSON.
 */
export interface AttemptPosition {
  createdAt: string;
  id: string;
}

const ZPosition = z.tuple([z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/), z.guid()]);

export function encodeCursor(p: AttemptPosition): string {
  return Buffer.from(JSON.stringify([p.createdAt, p.id])).toString("base64url");
}

export function decodeCursor(cursor: string): AttemptPosition {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    raw = undefined;
  }
  const parsed = ZPosition.safeParse(raw);
  if (!parsed.success || Number.isNaN(Date.parse(parsed.data[0]))) {
    throw new AppError("validation_failed", "Invalid cursor", [
      { path: "cursor", code: "invalid_cursor", message: "pass back the nextCursor of a previous page unchanged" },
    ]);
  }
  return { createdAt: parsed.data[0], id: parsed.data[1] };
}
