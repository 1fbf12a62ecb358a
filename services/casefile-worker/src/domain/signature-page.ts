import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";

export interface SignatureEntry {
  name: string;
  role: string;
  onBehalfOf: string | null;
  signedAt: Date | null;
  method: string | null;
}

export interface SignaturePageContent {
  caseFileTitle: string;
  documentTitle: string;
  signers: readonly SignatureEntry[];
}

/** The stored bytes are not a PDF pdf-lib can open (corrupt, encrypted, truncated): retrying cannot help. */
export class UnreadablePdfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadablePdfError";
  }
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const LEADING = 1.45;

/**
 * The standard fonts encode WinAnsi only, and pdf-lib throws on anything else. Rather than fail a
 * finalization over a name like "Łukasz", letters outside the set lose their accents where that helps
 * and become "?" where it does not. (A full Unicode page needs an embedded TrueType font via fontkit.)
 */
function encodable(text: string, font: PDFFont): string {
  const supported = new Set(font.getCharacterSet());
  let out = "";
  for (const ch of text.replace(/[\r\n\t\f\v]+/g, " ")) {
    const cp = ch.codePointAt(0) ?? 0x3f;
    if (supported.has(cp)) {
      out += ch;
      continue;
    }
    const base = ch.normalize("NFD").replace(/\p{M}/gu, "");
    out += base.length > 0 && [...base].every((c) => supported.has(c.codePointAt(0) ?? -1)) ? base : "?";
  }
  return out;
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line !== "") lines.push(line);
    // A single word wider than the line (a long title without spaces) is cut where it must be.
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line !== "") lines.push(line);
  return lines.length > 0 ? lines : [""];
}

/** Writes top to bottom, starting a further page when one is full (a long list of signers). */
class PageWriter {
  private page!: PDFPage;
  private y = 0;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
  ) {
    this.newPage();
  }

  private newPage(): void {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  ensureRoom(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  text(text: string, opts: { size: number; bold?: boolean; gray?: boolean }): void {
    const font = opts.bold ? this.fonts.bold : this.fonts.regular;
    for (const line of wrap(encodable(text, font), font, opts.size, A4[0] - 2 * MARGIN)) {
      this.ensureRoom(opts.size * LEADING);
      this.y -= opts.size;
      this.page.drawText(line, { x: MARGIN, y: this.y, size: opts.size, font, color: opts.gray ? rgb(0.35, 0.35, 0.35) : rgb(0, 0, 0) });
      this.y -= opts.size * (LEADING - 1);
    }
  }

  space(points: number): void {
    this.y -= points;
  }

  rule(): void {
    this.ensureRoom(12);
    this.y -= 6;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4[0] - MARGIN, y: this.y }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    this.y -= 6;
  }
}

/**
 * The original PDF with a signature page appended: who signed, in which role, for whom, when and how.
 * pdf-lib works on the bytes alone, so whatever it throws it would throw again on a retry: every error
 * here is reported as an unreadable PDF (a PDF that parses but lacks its page tree fails on the write).
 */
export async function appendSignaturePage(original: Uint8Array, content: SignaturePageContent): Promise<Uint8Array> {
  try {
    return await render(original, content);
  } catch (err) {
    throw new UnreadablePdfError(err instanceof Error ? err.message : String(err));
  }
}

async function render(original: Uint8Array, content: SignaturePageContent): Promise<Uint8Array> {
  const doc = await PDFDocument.load(original);
  if (doc.getPageCount() === 0) throw new Error("the PDF has no pages");
  const fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  const w = new PageWriter(doc, fonts);
  w.text("Signatures", { size: 20, bold: true });
  w.space(6);
  w.text(`Case file: ${content.caseFileTitle}`, { size: 11 });
  w.text(`Document: ${content.documentTitle}`, { size: 11 });
  w.rule();
  if (content.signers.length === 0) w.text("No signer signed this document.", { size: 11, gray: true });
  for (const s of content.signers) {
    // Keep one signer's lines together on a page where they fit.
    w.ensureRoom(6 * 11 * LEADING);
    w.space(4);
    w.text(s.name, { size: 12, bold: true });
    w.text(`Role: ${s.role}`, { size: 10 });
    if (s.onBehalfOf) w.text(`On behalf of: ${s.onBehalfOf}`, { size: 10 });
    w.text(`Signed at (UTC): ${s.signedAt ? s.signedAt.toISOString() : "unknown"}`, { size: 10 });
    w.text(`Signing method: ${s.method ?? "unknown"}`, { size: 10 });
  }
  return doc.save();
}
