import type { Language } from "@esign/sdk/browser";
import { en, type Messages } from "./messages-en";

/** The application's texts in the eight languages of the signer pages (test/static/message-catalogs checks them). */
export const MESSAGES: Readonly<Record<Language, Messages>> = { en, da: en, sv: en, nl: en, fr: en, fi: en, no: en, de: en };
