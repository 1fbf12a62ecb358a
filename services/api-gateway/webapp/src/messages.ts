import type { TLanguage } from "@esign/i18n";
import { da } from "./messages-da";
import { de } from "./messages-de";
import { en, type Messages } from "./messages-en";
import { fi } from "./messages-fi";
import { fr } from "./messages-fr";
import { nl } from "./messages-nl";
import { no } from "./messages-no";
import { sv } from "./messages-sv";

/**
 * The application's texts in the eight languages of the signer pages: the compiler refuses a missing
 * key, and test/static/message-catalogs.unit.test.ts runs catalogProblems over this catalog too.
 */
export const MESSAGES: Readonly<Record<TLanguage, Messages>> = { en, da, sv, nl, fr, fi, no, de };

/** Texts that read the same in another language on purpose (brand and technical names). */
export const SAME_AS_ENGLISH = [
  "appName",
  "nav.webhooks",
  "webhooks.title",
  "company.eboksChannel",
  "company.admin",
  "caseFile.documents",
  "caseFile.reference",
  "create.reference",
  "status.signed",
  "signerStatus.signed",
] as const;
