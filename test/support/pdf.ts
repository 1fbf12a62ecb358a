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
