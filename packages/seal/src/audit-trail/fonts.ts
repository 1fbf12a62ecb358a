import { readFileSync } from "node:fs";
import type { EmbeddedFont, PDF } from "@libpdf/core";

/**
 * The audit trail's fonts, from Google's Noto family as packaged on the npm registry (TrueType, SIL
 * Open Font License): Noto Sans covers Latin with every diacritic, Greek and Cyrillic; Noto Sans SC
 * the Han characters and Japanese kana; Noto Sans KR Hangul. Never a system font: the same bytes
 * render on every machine. Each is read once per process and embedded only when a text needs it,
 * subset to the glyphs used (a Chinese name costs kilobytes, not the 10 MB font).
 */
// Each named literally: scripts/build-services.ts resolves a literal require.resolve at build time into a
// path beside the bundle (a computed name could not be, and the image would lack the font).
const FONT_FILES = {
  regular: () => require.resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"),
  bold: () => require.resolve("@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf"),
  han: () => require.resolve("@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf"),
  hangul: () => require.resolve("@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf"),
} as const;

type FontName = keyof typeof FONT_FILES;

const fontBytes = new Map<FontName, Uint8Array>();

function bytesOf(name: FontName): Uint8Array {
  let bytes = fontBytes.get(name);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(FONT_FILES[name]()));
    fontBytes.set(name, bytes);
  }
  return bytes;
}

/** Reads every font file now, so the first finalization does not pay for it (and a missing package fails at boot). */
export function preloadFonts(): void {
  for (const name of Object.keys(FONT_FILES) as FontName[]) bytesOf(name);
}

export type FontStyle = "regular" | "bold";

/** A piece of text and the font that draws it. */
export interface TextRun {
  text: string;
  font: EmbeddedFont;
}

/** Shown for a character no font has (an emoji, a rare script): visible, and honest about the gap. */
const MISSING = "?";

/**
 * Fonts of one PDF, embedded on first use. Each character goes to the first font of the style's
 * chain that has a glyph for it; a bold heading falls back to the regular CJK fonts (no bold ones
 * are embedded to keep the file small).
 */
export class FontSet {
  private readonly embedded = new Map<FontName, EmbeddedFont>();

  constructor(private readonly pdf: PDF) {}

  private font(name: FontName): EmbeddedFont {
    let font = this.embedded.get(name);
    if (!font) {
      font = this.pdf.embedFont(bytesOf(name));
      this.embedded.set(name, font);
    }
    return font;
  }

  private chain(style: FontStyle): FontName[] {
    return [style, "han", "hangul"];
  }

  /** Splits `text` into runs of one font each. Whitespace stays with the run it is in. */
  runs(text: string, style: FontStyle): TextRun[] {
    const runs: TextRun[] = [];
    const chain = this.chain(style);
    for (const ch of text) {
      let font: EmbeddedFont | undefined;
      let glyph = ch;
      if (/\s/.test(ch)) {
        font = runs.at(-1)?.font ?? this.font(style);
        glyph = " ";
      } else {
        for (const name of chain) {
          // The Latin font is always embedded; the CJK ones only when a character needs them.
          if (name !== style && !this.embedded.has(name) && !hasGlyphCheap(name, ch)) continue;
          const candidate = this.font(name);
          if (candidate.canEncode(ch)) {
            font = candidate;
            break;
          }
        }
        if (!font) {
          font = this.font(style);
          glyph = MISSING;
        }
      }
      const last = runs.at(-1);
      if (last && last.font === font) last.text += glyph;
      else runs.push({ text: glyph, font });
    }
    return runs;
  }
}

/**
 * Whether a fallback font is worth embedding for `ch`: Han, kana and CJK punctuation for the SC font,
 * Hangul for the KR one. A script outside these ranges never loads the 6-10 MB fonts.
 */
function hasGlyphCheap(name: FontName, ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  if (name === "han")
    return (cp >= 0x2e80 && cp <= 0x9fff) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xff00 && cp <= 0xffef) || (cp >= 0x20000 && cp <= 0x3134f);
  if (name === "hangul") return (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f) || (cp >= 0xac00 && cp <= 0xd7af);
  return true;
}
