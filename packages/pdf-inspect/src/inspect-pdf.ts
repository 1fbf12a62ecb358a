import { PDF } from "@libpdf/core";
import { withInflateBudget } from "./inflate-budget";

/**
 * Why an upload is not a PDF this service can have signed; each becomes a 400 naming the file.
 * `too_costly`: refused for what opening it would cost (decompressed bytes, time, memory), not for
 * what it is (issue 26, item 2).
 */
export type PdfRefusal = "encrypted" | "unreadable" | "no_pages" | "too_costly";

export type PdfInspection = { ok: true; pages: number } | { ok: false; reason: PdfRefusal; detail: string };

export interface InspectLimits {
  /** Bytes LibPDF may decompress for this document (object streams, xref streams): PDF_INSPECT_MAX_INFLATED_BYTES. */
  maxInflatedBytes: number;
}

const tooCostly = (max: number): PdfInspection => ({
  ok: false,
  reason: "too_costly",
  detail: `it decompresses to more than ${max} bytes when opened, the most one document may (PDF_INSPECT_MAX_INFLATED_BYTES)`,
});

/**
 * Opens the bytes with the same PDF library that seals them at finalization (LibPDF), so a file
 * that passes here can be sealed later: not encrypted (a sealed copy could not be appended to it,
 * and signers could not read it), readable (bytes between `%PDF-` and `%%EOF` that no parser
 * reads), with at least one page; and, under `limits`, not one that decompresses to more than the
 * bound (an inflation bomb). Never throws.
 */
export async function inspectPdf(bytes: Uint8Array, limits?: InspectLimits): Promise<PdfInspection> {
  if (!limits) return open(bytes);
  const run = await withInflateBudget(limits.maxInflatedBytes, () => open(bytes));
  // Whatever LibPDF made of the refused stream (an error, an empty stream, a repaired file), the verdict is the cost.
  if (run.exceeded) return tooCostly(limits.maxInflatedBytes);
  if (run.outcome.ok) return run.outcome.value;
  return unreadable(run.outcome.error);
}

const unreadable = (err: unknown): PdfInspection => ({ ok: false, reason: "unreadable", detail: err instanceof Error ? err.message : String(err) });

async function open(bytes: Uint8Array): Promise<PdfInspection> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(bytes);
  } catch (err) {
    return unreadable(err);
  }
  if (pdf.isEncrypted) return { ok: false, reason: "encrypted", detail: "the PDF is encrypted (password-protected)" };
  let pages: number;
  try {
    pages = pdf.getPageCount();
  } catch (err) {
    return unreadable(err);
  }
  if (pages === 0) return { ok: false, reason: "no_pages", detail: "the PDF has no pages" };
  return { ok: true, pages };
}
