import { channelDefaultLanguage, negotiateLanguage, resolveLanguage, type Catalog, type TLanguage } from "@esign/i18n";
import { da } from "./da";
import { de } from "./de";
import { en } from "./en";
import { fi } from "./fi";
import { fr } from "./fr";
import { nl } from "./nl";
import { no } from "./no";
import { sv } from "./sv";
import type { SigningMessages } from "./signing-messages";

/** The signer's pages in every language of the spec. */
export const SIGNING_MESSAGES: Catalog<SigningMessages> = { en, da, sv, nl, fr, fi, no, de };

export const signingMessages = (language: TLanguage): SigningMessages => SIGNING_MESSAGES[language];

// Intl locales for dates: the spec's `no` is written bokmål.
const LOCALES: Readonly<Record<TLanguage, string>> = { en: "en-GB", da: "da-DK", sv: "sv-SE", nl: "nl-NL", fr: "fr-FR", fi: "fi-FI", no: "nb-NO", de: "de-DE" };

/** "24. november 2026 kl. 10.05 UTC": the language's own long date, always in UTC (the audit trail's clock). */
export function formatWhen(language: TLanguage, date: Date): string {
  return `${new Intl.DateTimeFormat(LOCALES[language], { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(date)} UTC`;
}

/**
 * The language a signer reads their pages in: the one their request was written in (the signer's,
 * then the case file's, then the channel's default: e-Boks Danish, email English).
 */
export function signerLanguage(signer: { language: string | null; channel: string }, caseFile: { language: string | null }): TLanguage {
  return resolveLanguage([signer.language, caseFile.language], channelDefaultLanguage(signer.channel));
}

/** Pages of no known signer (an unknown link, a refusal before the link is read): the browser's preference, else English. */
export const visitorLanguage = (acceptLanguage: string | undefined): TLanguage => negotiateLanguage(acceptLanguage) ?? "en";
