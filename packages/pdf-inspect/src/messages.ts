import { z } from "zod";

/** Parent -> inspector process: inspect the file at `path`, decompressing at most `maxInflatedBytes`. */
export const ZInspectRequest = z.object({ id: z.number().int(), path: z.string().min(1), maxInflatedBytes: z.number().int().positive() });
export type InspectRequest = z.infer<typeof ZInspectRequest>;

/** Inspector process -> parent. */
export const ZInspectReply = z.object({
  id: z.number().int(),
  result: z.discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), pages: z.number().int().positive() }),
    z.object({ ok: z.literal(false), reason: z.enum(["encrypted", "unreadable", "no_pages", "too_costly"]), detail: z.string() }),
  ]),
});
export type InspectReply = z.infer<typeof ZInspectReply>;

/** Parent -> inspector process: check the seal of the file at `path` (the public /verify). */
export const ZSealRequest = z.object({ id: z.number().int(), op: z.literal("seal"), path: z.string().min(1) });
export type SealRequest = z.infer<typeof ZSealRequest>;

/** What the public verification needs of a file's last signature; the database lookup stays with the parent. */
export const ZSealFinding = z.object({
  /** The CMS signature verifies over the covered bytes. */
  signatureValid: z.boolean(),
  digestMatches: z.boolean(),
  coversWholeFile: z.boolean(),
  /** SHA-256 of the signer's certificate, or null when unsigned. */
  certificateSha256: z.string().nullable(),
});
export type SealFinding = z.infer<typeof ZSealFinding>;

export const ZSealReply = z.object({ id: z.number().int(), seal: ZSealFinding.nullable(), error: z.string().optional() });
export type SealReply = z.infer<typeof ZSealReply>;

/**
 * Parent -> inspector process: files sent to wait behind the one it works on, asked back because
 * another tenant's file now waits (PdfInspector's prefetch). Each one not yet started is answered
 * in one CancelledReply; one already started is answered as usual.
 */
export const ZCancelRequest = z.object({ op: z.literal("cancel"), ids: z.array(z.number().int()) });
export type CancelRequest = z.infer<typeof ZCancelRequest>;

/** Inspector process -> parent: the files of a cancel that had not started, in the order they were sent. */
export const ZCancelledReply = z.object({ cancelled: z.array(z.number().int()) });
export type CancelledReply = z.infer<typeof ZCancelledReply>;
