import { PDF } from "@libpdf/core";

/** Why an upload is not a PDF this service can have signed; each becomes a 400 naming the file. */
export type PdfRefusal = "encrypted" | "unreadable" | "no_pages";

export type PdfInspection = { ok: true; pages: number } | { ok: false; reason: PdfRefusal; detail: string };

/**
 * Opens the bytes with the same PDF library that seals them at finalization (LibPDF), so a file
 * that passes here can be sealed later: not encrypted (a sealed copy could not be appended to it,
 * and signers could not read it), readable (bytes between `%PDF-` and `%%EOF` that no parser
 * reads), with at least one page. Never throws.
 */
export async function inspectPdf(bytes: Uint8Array): Promise<PdfInspection> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(bytes);
  } catch (err) {
    return { ok: false, reason: "unreadable", detail: err instanceof Error ? err.message : String(err) };
  }
  if (pdf.isEncrypted) return { ok: false, reason: "encrypted", detail: "the PDF is encrypted (password-protected)" };
  let pages: number;
  try {
    pages = pdf.getPageCount();
  } catch (err) {
    return { ok: false, reason: "unreadable", detail: err instanceof Error ? err.message : String(err) };
  }
  if (pages === 0) return { ok: false, reason: "no_pages", detail: "the PDF has no pages" };
  return { ok: true, pages };
}
