import type { Catalog, TLanguage } from "@esign/i18n";
import { da } from "./da";
import { de } from "./de";
import { en } from "./en";
import { fi } from "./fi";
import { fr } from "./fr";
import { nl } from "./nl";
import { no } from "./no";
import { sv } from "./sv";
import type { NotifierMessages } from "./notifier-messages";

/** Every language of the spec; a language without a key does not compile (and fails message-catalogs.unit.test.ts). */
export const NOTIFIER_MESSAGES: Catalog<NotifierMessages> = { en, da, sv, nl, fr, fi, no, de };

/** Texts that stay as they are in some languages: "Endpoint" is the developers' word in Danish and Dutch. */
export const NOTIFIER_SAME_AS_ENGLISH = ["subscriptionDisabled.endpoint"] as const;

export const messagesFor = (language: TLanguage): NotifierMessages => NOTIFIER_MESSAGES[language];
