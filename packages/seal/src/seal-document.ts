import { PDF, type TimestampAuthority } from "@libpdf/core";
import { ZAuditTrailContent, type AuditTrailContent } from "./audit-trail/audit-trail-content";
import { renderAuditTrail } from "./audit-trail/render-audit-trail";
import { libPdfSigner, type SealKey } from "./seal-key";

/** The stored bytes are not a PDF that can be opened (or have no pages): retrying cannot help. */
export class UnreadablePdfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadablePdfError";
  }
}

export type PadesLevel = "B-B" | "B-T";

export interface SealOptions {
  key: SealKey;
  /** With an authority the signature carries an RFC 3161 timestamp (PAdES B-T); without, B-B. */
  timestampAuthority: TimestampAuthority | null;
}

export interface SealedDocument {
  bytes: Uint8Array;
  originalPages: number;
  auditTrailPages: number;
  level: PadesLevel;
}

// Room for the CMS in /Contents: the seal's chain (~3 KB for two RSA-3072 certificates) plus, with a
// timestamp, the authority's token and chain. Too small fails the signing; too large only pads.
const CMS_ROOM_BYTES = 12_288;
const CMS_ROOM_WITH_TIMESTAMP_BYTES = 24_576;

async function open(bytes: Uint8Array): Promise<PDF> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(bytes);
  } catch (err) {
    throw new UnreadablePdfError(err instanceof Error ? err.message : String(err));
  }
  if (pdf.getPageCount() === 0) throw new UnreadablePdfError("the PDF has no pages");
  return pdf;
}

/** Pages of a stored original, for the audit trail's list of documents. */
export async function countPages(bytes: Uint8Array): Promise<number> {
  return (await open(bytes)).getPageCount();
}

/**
 * The sealed copy of `original`: its bytes unchanged, then (one incremental update) the audit-trail
 * pages with subset fonts, then (a second one) the PAdES signature over the whole file. Signing is
 * the last step by construction: nothing is written after the signature, which covers every byte.
 * The same input always derives from the original, so a retry never stacks a second audit trail.
 */
export async function sealDocument(original: Uint8Array, content: AuditTrailContent, opts: SealOptions): Promise<SealedDocument> {
  const checked = ZAuditTrailContent.parse(content);
  const pdf = await open(original);
  const originalPages = pdf.getPageCount();
  const auditTrailPages = renderAuditTrail(pdf, checked);
  let withTrail: Uint8Array;
  try {
    withTrail = await pdf.save({ incremental: true, subsetFonts: true });
  } catch (err) {
    // The original parses but cannot be written back (a broken page tree, an unsupported encryption).
    throw new UnreadablePdfError(`cannot append the audit trail: ${err instanceof Error ? err.message : String(err)}`);
  }
  const toSign = await PDF.load(withTrail);
  const level: PadesLevel = opts.timestampAuthority ? "B-T" : "B-B";
  const { bytes } = await toSign.sign({
    signer: libPdfSigner(opts.key),
    fieldName: "Seal",
    reason: "Sealed after signing; certificate of completion attached",
    subFilter: "ETSI.CAdES.detached",
    digestAlgorithm: "SHA-256",
    level,
    ...(opts.timestampAuthority ? { timestampAuthority: opts.timestampAuthority } : {}),
    estimatedSize: opts.timestampAuthority ? CMS_ROOM_WITH_TIMESTAMP_BYTES : CMS_ROOM_BYTES,
  });
  return { bytes, originalPages, auditTrailPages, level };
}
