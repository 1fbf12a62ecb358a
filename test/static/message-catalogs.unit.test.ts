import { catalogProblems } from "@esign/i18n";
import { AUDIT_TRAIL_CATALOG, AUDIT_TRAIL_SAME_AS_ENGLISH } from "@esign/seal";
import { NOTIFIER_MESSAGES, NOTIFIER_SAME_AS_ENGLISH } from "../../services/notifier/src/domain/messages/catalog";
import { SIGNING_MESSAGES } from "../../services/api-gateway/src/signing/messages/catalog";
import { SIMULATOR_MESSAGES } from "../../services/api-gateway/src/identity/simulator-messages";
import { MESSAGES as WEBAPP_MESSAGES, SAME_AS_ENGLISH as WEBAPP_SAME_AS_ENGLISH } from "../../services/api-gateway/webapp/src/messages";

/*
 * Every text a signer, cc recipient or owner reads exists in all eight languages of the spec. The
 * compiler already refuses a catalog that forgets a key; this fails as well when a text is empty,
 * drops a value (a name, a title), or is English left in another language.
 */
const CATALOGS = [
  { name: "notifier (mails, e-Boks messages, subscription-disabled mail)", catalog: NOTIFIER_MESSAGES, sameAsEnglish: NOTIFIER_SAME_AS_ENGLISH },
  { name: "seal (audit trail)", catalog: AUDIT_TRAIL_CATALOG, sameAsEnglish: AUDIT_TRAIL_SAME_AS_ENGLISH },
  { name: "gateway (signing pages, identity page, error pages)", catalog: SIGNING_MESSAGES, sameAsEnglish: [] },
  { name: "gateway (identity-provider simulator pages)", catalog: SIMULATOR_MESSAGES, sameAsEnglish: [] },
  { name: "web application (archive, case files, webhooks, company)", catalog: WEBAPP_MESSAGES, sameAsEnglish: WEBAPP_SAME_AS_ENGLISH },
];

describe("message catalogs", () => {
  it.each(CATALOGS)("$name: every key in every language", ({ name, catalog, sameAsEnglish }) => {
    expect(catalogProblems(name, catalog, { sameAsEnglish })).toEqual([]);
  });
});
