import { resolveSecureMethods, type AccountSettings } from "./account-rules";
import type { TSigner } from "./casefile-create/schemas";

/*
 * A signer of the create payload as it is stored (the Signer row's own columns), with its defaults
 * resolved against the account: one mapping for the casefile-worker's create and the gateway's
 * "add a signer" (issue 24), so that a signer added later is exactly what a created one would be.
 */

/** The per-signer mail texts and reminder settings, kept together in Signer.notification (JSON). */
export const SIGNER_NOTIFICATION_KEYS = [
  "emailFormat",
  "emailSubject",
  "emailText",
  "reminderInterval",
  "reminderEmailSubject",
  "reminderEmailText",
  "completedEmailSubject",
  "completedEmailText",
] as const;
export type SignerNotificationKey = (typeof SIGNER_NOTIFICATION_KEYS)[number];
export type SignerNotification = { [K in SignerNotificationKey]: TSigner[K] | null };

const fromUnix = (s: number | null | undefined): Date | null => (s === null || s === undefined ? null : new Date(s * 1000));

/** Signer.notification as stored: every key present, null when unset. */
export function signerNotification(s: Partial<Pick<TSigner, SignerNotificationKey>>): SignerNotification {
  return Object.fromEntries(SIGNER_NOTIFICATION_KEYS.map((k) => [k, s[k] ?? null])) as SignerNotification;
}

/** Encrypts a national id for its column (@esign/db encryptSecret with ENCRYPTION_KEY): the writer's. */
export type EncryptNationalId = (plain: string) => string;

const encrypted = (value: string | null | undefined, encrypt: EncryptNationalId): string | null => (value ? encrypt(value) : null);

/**
 * The stored columns of a signer of the create payload (ids, status and times are the writer's).
 * The CPR and social security numbers are national ids: stored encrypted (issue 26).
 */
export function signerRecord(s: TSigner, account: AccountSettings, encrypt: EncryptNationalId) {
  return {
    name: s.name,
    email: s.email ?? null,
    channel: s.channel,
    cprEnc: encrypted(s.cpr, encrypt),
    cvr: s.cvr ?? null,
    socialSecurityNumberEnc: encrypted(s.socialSecurityNumberPlain, encrypt),
    vatin: s.vatin ?? null,
    role: s.role,
    onBehalfOf: s.onBehalfOf ?? null,
    signOrder: s.signOrder ?? 0,
    ssnType: s.ssnType ?? null,
    accessControl: s.accessControl ?? false,
    successUrl: s.successUrl ?? null,
    failUrl: s.failUrl ?? null,
    language: s.language ?? null,
    enableInsecureSigning: s.enableInsecureSigning ?? false,
    insecureSigningMethods: s.insecureSigningMethods ?? [],
    secureSigningMethods: resolveSecureMethods(account, s.secureSigningMethods),
    storeAsContact: s.storeAsContact ?? false,
    notification: signerNotification(s),
    activeAt: fromUnix(s.activeAt),
    expireAt: fromUnix(s.expireAt),
  };
}

export type SignerRecord = ReturnType<typeof signerRecord>;
