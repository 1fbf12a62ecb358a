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
