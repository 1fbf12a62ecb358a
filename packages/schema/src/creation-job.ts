import { z } from "zod";

/** One item of `signingLinks` in the job result (contract: Job status). */
export const ZSigningLinkItem = z.object({
  signerId: z.number().int(),
  name: z.string(),
  role: z.string(),
  signingLink: z.string(),
});
export type SigningLinkItem = z.infer<typeof ZSigningLinkItem>;

/**
 * The job result as stored: the links carry bearer tokens, so they are kept encrypted
 * (`signingLinksEnc`) and decrypted only to answer a status poll.
 */
export const ZStoredJobResult = z.object({
  caseFile: z.object({ id: z.number().int(), status: z.number().int() }),
  signingLinksEnc: z.string(),
});
export type StoredJobResult = z.infer<typeof ZStoredJobResult>;

/** A stored file of a creation job: name as uploaded, content address, size. */
export const ZStoredFile = z.object({
  name: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int(),
  /** Known from the upload's inspection (jobs stored before it have none). */
  pages: z.number().int().positive().optional(),
});
export const ZStoredFiles = z.array(ZStoredFile);
export type StoredFile = z.infer<typeof ZStoredFile>;
