/** The languages the spec allows on a signer or a case file. */
export const SPEC_LANGUAGES = ["en", "da", "sv", "nl", "fr", "fi", "no", "de"] as const;
export type SpecLanguage = (typeof SPEC_LANGUAGES)[number];

const isSpecLanguage = (v: string): v is SpecLanguage => (SPEC_LANGUAGES as readonly string[]).includes(v);

/**
 * The first of the given languages that is set and known, else the channel's default: `en` for email,
 * `da` for e-Boks (spec, matching rule 5: signer, then case file, then `da`).
 */
export function resolveLanguage(candidates: ReadonlyArray<string | null | undefined>, fallback: SpecLanguage): SpecLanguage {
  for (const c of candidates) {
    const v = c?.trim().toLowerCase();
    if (v && isSpecLanguage(v)) return v;
  }
  return fallback;
}

export const EMAIL_DEFAULT_LANGUAGE: SpecLanguage = "en";
export const EBOKS_DEFAULT_LANGUAGE: SpecLanguage = "da";
