import type { Customer } from "@esign/db";
import { channelAllowed, EBOKS_DISABLED_MESSAGE, enabledMethodsText, methodsNotEnabled, type TCaseFile } from "@esign/schema";

/** What the account checks read of a customer (the rules themselves: @esign/schema's account-rules.ts). */
export type AccountSettings = Pick<Customer, "eboksEnabled" | "secureSigningMethods">;

/** A reason the job must fail rather than be retried: the account cannot send this case file. */
export class AccountCheckFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AccountCheckFailed";
  }
}

/** Spec rules 5-6 and secure signing rule 1: what the account must have enabled for this case file. */
export function checkAccount(customer: AccountSettings, caseFile: TCaseFile): void {
  if (caseFile.signers.some((s) => !channelAllowed(customer, s.channel))) {
    throw new AccountCheckFailed(EBOKS_DISABLED_MESSAGE);
  }
  const problems = caseFile.signers.flatMap((s, i) => {
    const missing = methodsNotEnabled(customer, s.secureSigningMethods);
    return missing.length > 0 ? [`signer ${i} ("${s.name}") requests ${missing.join(", ")}`] : [];
  });
  if (problems.length > 0) {
    throw new AccountCheckFailed(
      `Secure signing method not enabled for this account: ${problems.join("; ")}. Enabled methods: ${enabledMethodsText(customer)}.`,
    );
  }
}
