import { z } from "zod";

/** Parent -> inspector process: inspect the file at `path`. */
export const ZInspectRequest = z.object({ id: z.number().int(), path: z.string().min(1) });
export type InspectRequest = z.infer<typeof ZInspectRequest>;

/** Inspector process -> parent. */
export const ZInspectReply = z.object({
  id: z.number().int(),
  result: z.discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), pages: z.number().int().positive() }),
    z.object({ ok: z.literal(false), reason: z.enum(["encrypted", "unreadable", "no_pages"]), detail: z.string() }),
  ]),
});
export type InspectReply = z.infer<typeof ZInspectReply>;
