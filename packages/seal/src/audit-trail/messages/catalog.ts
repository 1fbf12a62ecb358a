import type { TLanguage } from "@esign/schema";
import { da } from "./da";
import { en } from "./en";
import type { AuditTrailMessages } from "./messages";

/** Languages with a catalog of their own; the others of the platform's eight read English for now. */
export const AUDIT_TRAIL_CATALOG: Readonly<Partial<Record<TLanguage, AuditTrailMessages>>> = { en, da };

/** The case file's language when a catalog exists for it, else English. */
export function messagesFor(language: TLanguage | null): { language: TLanguage; messages: AuditTrailMessages } {
  const own = language ? AUDIT_TRAIL_CATALOG[language] : undefined;
  return own && language ? { language, messages: own } : { language: "en", messages: en };
}
