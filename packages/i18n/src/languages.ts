import { LANGUAGES, type TLanguage } from "@esign/schema";

export { LANGUAGES, type TLanguage };

export const isLanguage = (v: string): v is TLanguage => (LANGUAGES as readonly string[]).includes(v);

/** The channel defaults of the spec: e-Boks messages are Danish, everything else English. */
export const EMAIL_DEFAULT_LANGUAGE: TLanguage = "en";
export const EBOKS_DEFAULT_LANGUAGE: TLanguage = "da";

/** The default for what a signer reads about their link: the channel the request came by. */
export const channelDefaultLanguage = (channel: string | null | undefined): TLanguage =>
  channel === "eboks" ? EBOKS_DEFAULT_LANGUAGE : EMAIL_DEFAULT_LANGUAGE;

/**
 * The first of the given languages that is set and one of the spec's eight, else `fallback`
 * (the spec's order: the signer's, then the case file's, then the channel's default).
 */
export function resolveLanguage(candidates: ReadonlyArray<string | null | undefined>, fallback: TLanguage): TLanguage {
  for (const c of candidates) {
    const v = c?.trim().toLowerCase();
    if (v && isLanguage(v)) return v;
  }
  return fallback;
}

// Norwegian arrives as bokmål or nynorsk tags; the spec has one Norwegian (`no`).
const ALIASES: Readonly<Record<string, TLanguage>> = { nb: "no", nn: "no" };

/**
 * The browser's preferred language among the eight (RFC 9110 Accept-Language, q-values honoured),
 * or null. Only for pages that belong to no signer yet (an unknown link): a known signer reads the
 * language their request was written in.
 */
export function negotiateLanguage(acceptLanguage: string | undefined): TLanguage | null {
  if (!acceptLanguage) return null;
  const ranked = acceptLanguage
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { primary: tag.trim().toLowerCase().split("-")[0] ?? "", q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const r of ranked) {
    const lang = ALIASES[r.primary] ?? r.primary;
    if (isLanguage(lang)) return lang;
  }
  return null;
}
