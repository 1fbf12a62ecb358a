import { rgb, type PDF, type PDFPage } from "@libpdf/core";
import type { FontSet, FontStyle } from "./fonts";
import { layoutLines, widthOf } from "./text-layout";

export const A4 = { width: 595.28, height: 841.89 } as const;
const MARGIN = 56;
const FOOTER = 28;
const LEADING = 1.4;
const LABEL_WIDTH = 165;
const GAP = 10;

const BLACK = rgb(0, 0, 0);
const GRAY = rgb(0.38, 0.38, 0.38);
const RULE = rgb(0.7, 0.7, 0.7);

/** Writes the audit trail top to bottom on A4 pages appended to the PDF, starting new pages as needed. */
export class PageWriter {
  readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  private y = 0;

  constructor(
    private readonly pdf: PDF,
    private readonly fonts: FontSet,
  ) {
    this.newPage();
  }

  private newPage(): void {
    this.page = this.pdf.addPage({ width: A4.width, height: A4.height });
    this.pages.push(this.page);
    this.y = A4.height - MARGIN;
  }

  private ensureRoom(height: number): void {
    if (this.y - height < MARGIN + FOOTER) this.newPage();
  }

  private drawLine(runs: ReturnType<typeof layoutLines>[number], x: number, size: number, gray: boolean): void {
    let cursor = x;
    for (const run of runs) {
      this.page.drawText(run.text, { x: cursor, y: this.y, font: run.font, size, color: gray ? GRAY : BLACK });
      cursor += run.font.getTextWidth(run.text, size);
    }
  }

  /** A paragraph across the full width. */
  text(text: string, opts: { size: number; style?: FontStyle; gray?: boolean }): void {
    const lines = layoutLines(this.fonts, text, opts.style ?? "regular", opts.size, A4.width - 2 * MARGIN);
    for (const line of lines) {
      this.ensureRoom(opts.size * LEADING);
      this.y -= opts.size;
      this.drawLine(line, MARGIN, opts.size, opts.gray ?? false);
      this.y -= opts.size * (LEADING - 1);
    }
  }

  /** A label (gray, left column) and its value (right column), each wrapped in its own column. */
  field(label: string, value: string, size = 9.5): void {
    const labelLines = layoutLines(this.fonts, label, "regular", size, LABEL_WIDTH - GAP);
    const valueLines = layoutLines(this.fonts, value, "regular", size, A4.width - 2 * MARGIN - LABEL_WIDTH);
    const rows = Math.max(labelLines.length, valueLines.length);
    this.ensureRoom(rows * size * LEADING);
    for (let i = 0; i < rows; i++) {
      this.y -= size;
      const l = labelLines[i];
      const v = valueLines[i];
      if (l) this.drawLine(l, MARGIN, size, true);
      if (v) this.drawLine(v, MARGIN + LABEL_WIDTH, size, false);
      this.y -= size * (LEADING - 1);
    }
  }

  /** A label over a full-width value: for hashes and fingerprints, which must read as one unbroken line. */
  blockField(label: string, value: string, size = 9.5): void {
    const labelLines = layoutLines(this.fonts, label, "regular", size, A4.width - 2 * MARGIN);
    const valueLines = layoutLines(this.fonts, value, "regular", size, A4.width - 2 * MARGIN);
    this.ensureRoom((labelLines.length + valueLines.length) * size * LEADING);
    for (const [lines, gray] of [
      [labelLines, true],
      [valueLines, false],
    ] as const) {
      for (const line of lines) {
        this.y -= size;
        this.drawLine(line, MARGIN, size, gray);
        this.y -= size * (LEADING - 1);
      }
    }
  }

  /** Keeps the next block (a signer's lines) on one page when it fits on a fresh one. */
  keepTogether(height: number): void {
    this.ensureRoom(height);
  }

  space(points: number): void {
    this.y -= points;
  }

  rule(): void {
    this.ensureRoom(14);
    this.y -= 7;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4.width - MARGIN, y: this.y }, thickness: 0.5, color: RULE });
    this.y -= 7;
  }

  /** Footers go on last, when the number of pages is known. */
  footers(label: (n: number, total: number) => string): void {
    const size = 8;
    this.pages.forEach((page, i) => {
      const runs = this.fonts.runs(label(i + 1, this.pages.length), "regular");
      let x = A4.width - MARGIN - widthOf(runs, size);
      for (const run of runs) {
        page.drawText(run.text, { x, y: MARGIN - 8, font: run.font, size, color: GRAY });
        x += run.font.getTextWidth(run.text, size);
      }
    });
  }
}
