import type { Customer } from "@esign/db";
import type { TCaseFile, TSecureSigningMethod } from "@esign/schema";

/** What the account checks read of a customer. */
export type AccountSettings = Pick<Customer, "eboksEnabled" | "secureSigningMethods">;

/** A reason the job must fail rather than be retried: the account cannot send this case file. */
export class AccountCheckFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AccountCheckFailed";
  }
}

export const EBOKS_DISABLED_MESSAGE =
  "The electronic mailbox (e-Boks) add-on is disabled for this customer: the customer must contract the add-on " +
  "(a customer administrator can request it under Configuration, Company, Communication Channels) before sending to signers with channel eboks.";

/** Spec rules 5-6 and secure signing rule 1: what the account must have enabled for this case file. */
export function checkAccount(customer: AccountSettings, caseFile: TCaseFile): void {
  if (!customer.eboksEnabled && caseFile.signers.some((s) => s.channel === "eboks")) {
    throw new AccountCheckFailed(EBOKS_DISABLED_MESSAGE);
  }
  const enabled = new Set(customer.secureSigningMethods);
  const problems = caseFile.signers.flatMap((s, i) => {
    const missing = (s.secureSigningMethods ?? []).filter((m) => !enabled.has(m));
    return missing.length > 0 ? [`signer ${i} ("${s.name}") requests ${missing.join(", ")}`] : [];
  });
  if (problems.length > 0) {
    throw new AccountCheckFailed(
      `Secure signing method not enabled for this account: ${problems.join("; ")}. ` +
        `Enabled methods: ${customer.secureSigningMethods.length > 0 ? customer.secureSigningMethods.join(", ") : "none"}.`,
    );
  }
}

/** Secure signing rules 2-4: omitted means every method of the account; a list (even empty) is taken as is. */
export function resolveSecureMethods(customer: AccountSettings, requested: readonly TSecureSigningMethod[] | undefined): string[] {
  return requested === undefined ? [...customer.secureSigningMethods] : [...requested];
}
