import type { Catalog, TLanguage } from "@esign/i18n";
import { da } from "./da";
import { de } from "./de";
import { en } from "./en";
import { fi } from "./fi";
import { fr } from "./fr";
import { nl } from "./nl";
import { no } from "./no";
import { sv } from "./sv";
import type { AuditTrailMessages } from "./messages";

/** The audit trail in every language of the spec. */
export const AUDIT_TRAIL_CATALOG: Catalog<AuditTrailMessages> = { en, da, sv, nl, fr, fi, no, de };

/** "Browser (user agent)": the technical term stays in English in Danish. */
export const AUDIT_TRAIL_SAME_AS_ENGLISH = ["userAgent"] as const;

/** The case file's language; English when it has none. */
export function messagesFor(language: TLanguage | null): { language: TLanguage; messages: AuditTrailMessages } {
  const lang = language ?? "en";
  return { language: lang, messages: AUDIT_TRAIL_CATALOG[lang] };
}
