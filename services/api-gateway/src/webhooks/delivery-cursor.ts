import { z } from "zod";

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

function decodeCursor(cursor: string): AttemptPosition | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    raw = undefined;
  }
  const parsed = ZPosition.safeParse(raw);
  if (!parsed.success || Number.isNaN(Date.parse(parsed.data[0]))) return undefined;
  return { createdAt: parsed.data[0], id: parsed.data[1] };
}

/** The `cursor` query parameter: the position it carries, or the issue that names it. */
export const ZCursor = z
  .string()
  .min(1)
  .max(512)
  .transform((cursor, ctx) => {
    const position = decodeCursor(cursor);
    if (position) return position;
    ctx.addIssue({ code: "custom", message: "pass back the nextCursor of a previous page unchanged", params: { code: "invalid_cursor" } });
    return z.NEVER;
  });
