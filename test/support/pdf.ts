import { PDFDocument, StandardFonts } from "pdf-lib";

/** A real, valid PDF made by pdf-lib, with some text so each one hashes differently. */
export async function makePdf(text: string, pages = 1): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`${text} - page ${i + 1}`, { x: 50, y: 780, size: 14, font });
  }
  return Buffer.from(await doc.save());
}

/** A valid PDF, password-protected (AES-256 with a user password): signers could not open it. */
export async function makeEncryptedPdf(text: string): Promise<Buffer> {
  const { PDF } = await import("@libpdf/core");
  const pdf = await PDF.load(await makePdf(text));
  pdf.setProtection({ userPassword: "secret", ownerPassword: "owner", algorithm: "AES-256" });
  return Buffer.from(await pdf.save());
}

/** `%PDF-` ... `%%EOF` with nothing a parser can read in between: passes the content sniff, not a parser. */
export function makeUnreadablePdf(): Buffer {
  return Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(4096, 0x41), Buffer.from("\n%%EOF\n")]);
}

/** A document that reads like one: a title and paragraphs on each page (WinAnsi text: Latin letters with diacritics). */
export async function makeLetterPdf(title: string, paragraphs: readonly string[], pages = 1): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(title, { x: 60, y: 770, size: 20, font: bold });
    let y = 730;
    for (const paragraph of paragraphs) {
      const words = paragraph.split(" ");
      let line = "";
      for (const word of words) {
        const next = line ? `${line} ${word}` : word;
        if (regular.widthOfTextAtSize(next, 11) > 475) {
          page.drawText(line, { x: 60, y, size: 11, font: regular });
          y -= 16;
          line = word;
        } else line = next;
      }
      if (line) page.drawText(line, { x: 60, y, size: 11, font: regular });
      y -= 28;
    }
    page.drawText(`${i + 1} / ${pages}`, { x: 280, y: 40, size: 9, font: regular });
  }
  return Buffer.from(await doc.save());
}
