import type { FontSet, FontStyle, TextRun } from "./fonts";

/**
 * Line breaking for mixed scripts: words break at spaces, CJK characters (which separate words
 * without spaces) anywhere, and a word wider than the line (a hash, a long title) where it must.
 */
const BREAK_ANYWHERE = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let word = "";
  for (const ch of text.replace(/[\r\n\t\f\v]+/g, " ")) {
    if (ch === " " || BREAK_ANYWHERE.test(ch)) {
      if (word) tokens.push(word);
      word = "";
      tokens.push(ch);
    } else {
      word += ch;
    }
  }
  if (word) tokens.push(word);
  return tokens;
}

export function widthOf(runs: readonly TextRun[], size: number): number {
  let width = 0;
  for (const run of runs) width += run.font.getTextWidth(run.text, size);
  return width;
}

/** `text` broken into lines no wider than `maxWidth`, each as runs of one font. */
export function layoutLines(fonts: FontSet, text: string, style: FontStyle, size: number, maxWidth: number): TextRun[][] {
  const measure = (s: string) => widthOf(fonts.runs(s, style), size);
  const lines: string[] = [];
  let line = "";
  for (const token of tokenize(text)) {
    if (line === "" && token === " ") continue;
    const candidate = line + token;
    if (measure(candidate) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line.trim() !== "") lines.push(line.trimEnd());
    line = "";
    if (token === " ") continue;
    let rest = token;
    while (measure(rest) > maxWidth && [...rest].length > 1) {
      const chars = [...rest];
      let cut = chars.length - 1;
      while (cut > 1 && measure(chars.slice(0, cut).join("")) > maxWidth) cut--;
      lines.push(chars.slice(0, cut).join(""));
      rest = chars.slice(cut).join("");
    }
    line = rest;
  }
  if (line.trim() !== "") lines.push(line.trimEnd());
  if (lines.length === 0) lines.push("");
  return lines.map((l) => fonts.runs(l, style));
}
