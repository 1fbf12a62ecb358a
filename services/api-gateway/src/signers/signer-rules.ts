import type { Signer } from "@esign/db";
import type { FieldIssue } from "@esign/errors";
import { type AccountSettings, channelAllowed, EBOKS_DISABLED_MESSAGE, enabledMethodsText, methodsNotEnabled, signerRuleErrors } from "@esign/schema";

/*
 * The create payload's rules across fields and the account's rules, for a signer added to or changed
 * on a case file (the create's own functions from @esign/schema, over the case file's signers as they
 * would be after the change). Only what the change breaks is reported: a rule an untouched signer
 * already broke is not this request's fault.
 */

/** What the rules across fields read of a signer, in the create payload's words. */
export interface RuleForm {
  name: string;
  channel: string;
  cpr?: string | null;
  cvr?: string | null;
  role: string;
  enableInsecureSigning: boolean;
  insecureSigningMethods?: readonly string[];
  secureSigningMethods?: readonly string[];
  activeAt?: number | null;
  expireAt?: number | null;
}

const unix = (d: Date | null): number | null => (d ? Math.floor(d.getTime() / 1000) : null);

/** Stands for a stored (encrypted) CPR number in a RuleForm: present, never read. */
const STORED_CPR = "stored";

/** A stored signer in the create payload's words. */
export function ruleFormOf(s: Signer): RuleForm {
  return {
    name: s.name,
    channel: s.channel,
    // The rules only ask whether a CPR is given: the stored one stays encrypted here.
    cpr: s.cprEnc === null ? null : STORED_CPR,
    cvr: s.cvr,
    role: s.role,
    enableInsecureSigning: s.enableInsecureSigning,
    insecureSigningMethods: s.insecureSigningMethods,
    secureSigningMethods: s.secureSigningMethods,
    activeAt: unix(s.activeAt),
    expireAt: unix(s.expireAt),
  };
}

export interface DocumentRoles {
  name: string;
  signable: boolean;
  roles: string[];
}

const key = (e: { path: string; code: string }) => `${e.path}\u0000${e.code}`;

/**
 * The rules across fields that `after` breaks and `before` did not (`before` null: the signer is
 * new), among `others` (the case file's other signers that take part) and its documents. Paths are
 * the request body's: the signer's own field, or `role` when a document's roles no longer meet a signer.
 */
export function ruleIssuesOfChange(others: readonly RuleForm[], before: RuleForm | null, after: RuleForm, documents: readonly DocumentRoles[]): FieldIssue[] {
  const at = `caseFile.signers[${others.length}]`;
  const known = new Set(signerRuleErrors(before ? [...others, before] : others, documents).map(key));
  return signerRuleErrors([...others, after], documents)
    .filter((e) => !known.has(key(e)))
    .map((e) => {
      if (e.path === at) return { ...e, path: "body" };
      if (e.path.startsWith(`${at}.`) || e.path.startsWith(`${at}[`)) return { ...e, path: e.path.slice(at.length).replace(/^\./, "") };
      // A document whose roles no longer meet any signer: the role this change gave or took away.
      return { ...e, path: "role" };
    });
}

/**
 * The account's rules for what the request names: the eboks channel needs the add-on, and every
 * secure method asked for must be enabled (a method the account has disabled since is no reason to
 * refuse an unrelated change).
 */
export function accountIssues(account: AccountSettings, given: { channel?: string | null; secureSigningMethods?: readonly string[] | null }): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (given.channel && !channelAllowed(account, given.channel)) issues.push({ path: "channel", code: "eboks_disabled", message: EBOKS_DISABLED_MESSAGE });
  const missing = methodsNotEnabled(account, given.secureSigningMethods ?? undefined);
  if (missing.length > 0) {
    issues.push({
      path: "secureSigningMethods",
      code: "secure_method_not_enabled",
      message: `not enabled for this account: ${missing.join(", ")} (enabled: ${enabledMethodsText(account)})`,
    });
  }
  return issues;
}
