/*
 * What a customer's account must have enabled for a signer (spec rules 5-6 and the secure signing
 * rules 1-4), in one place for the two writers of signers: the casefile-worker's create and the
 * gateway's signer routes (issue 24: a signer added after creation gets what a created one gets).
 */

/** What the account rules read of a customer. */
export interface AccountSettings {
  eboksEnabled: boolean;
  secureSigningMethods: readonly string[];
}

export const EBOKS_DISABLED_MESSAGE =
  "The electronic mailbox (e-Boks) add-on is disabled for this customer: the customer must contract the add-on " +
  "(a customer administrator can request it under Configuration, Company, Communication Channels) before sending to signers with channel eboks.";

/** Spec rules 5-6: the eboks channel only with the add-on. */
export const channelAllowed = (account: AccountSettings, channel: string): boolean => channel !== "eboks" || account.eboksEnabled;

/** Secure signing rule 1: the requested methods the account has not enabled (none when nothing is requested). */
export function methodsNotEnabled(account: AccountSettings, requested: readonly string[] | undefined): string[] {
  const enabled = new Set(account.secureSigningMethods);
  return (requested ?? []).filter((m) => !enabled.has(m));
}

/** The account's enabled methods in words, for the messages of both writers. */
export const enabledMethodsText = (account: AccountSettings): string =>
  account.secureSigningMethods.length > 0 ? account.secureSigningMethods.join(", ") : "none";

/** Secure signing rules 2-4: omitted means every method of the account; a list (even empty) is taken as is. */
export function resolveSecureMethods(account: AccountSettings, requested: readonly string[] | undefined): string[] {
  return requested === undefined ? [...account.secureSigningMethods] : [...requested];
}
