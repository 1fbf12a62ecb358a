import { z } from "zod";
import { errorMap } from "./casefile-create/messages";
import { ZCcRecipient, ZSigner } from "./casefile-create/schemas";

/*
 * The bodies that change a signer, its signing request or a copy recipient after creation (issue 24;
 * Penneo's `PUT casefiles/{cf}/signers/{id}`, `PUT signingrequests/{id}`, `PUT casefiles/{cf}/recipients/{id}`),
 * made from the create payload's field schemas, so each field keeps the create's rules, codes and
 * words. A change is partial: an absent key leaves the value as it is (Penneo's SDKs leave out what
 * is null); `null` clears a value that may be unset; no default is applied.
 */

/** What Penneo calls the signing request: the signer's mail, reminders, redirects and methods. */
export const SIGNING_REQUEST_FIELDS = [
  "email",
  "emailSubject",
  "emailText",
  "reminderEmailSubject",
  "reminderEmailText",
  "completedEmailSubject",
  "completedEmailText",
  "emailFormat",
  "successUrl",
  "failUrl",
  "reminderInterval",
  "accessControl",
  "enableInsecureSigning",
  "insecureSigningMethods",
  "secureSigningMethods",
] as const;

/** The signer's own fields: Penneo's Signer entity (name, ssn, vatin, onBehalfOf, storeAsContact, language) and ours. */
export const SIGNER_FIELDS = [
  "name",
  "socialSecurityNumberPlain",
  "ssnType",
  "vatin",
  "onBehalfOf",
  "storeAsContact",
  "language",
  "role",
  "signOrder",
  "channel",
  "cpr",
  "cvr",
  "activeAt",
  "expireAt",
] as const;

/**
 * The create payload's words for these bodies' errors (the gateway's contract passes it to the
 * parse), with "<field> is required" for a missing field, as the create says it.
 */
export const editErrorMap: z.core.$ZodErrorMap = (iss) =>
  iss.code === "invalid_type" && iss.input === undefined ? `${String(iss.path?.[iss.path.length - 1] ?? "body")} is required` : errorMap(iss);

const S = ZSigner.shape;
/** A create field that may be unset: `null` clears it. */
const clearable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** `PUT casefiles/{cf}/signers/{id}`: the signer's own fields (the keys of SIGNER_FIELDS). */
export const ZSignerPatch = z.strictObject({
  name: S.name.optional(),
  socialSecurityNumberPlain: S.socialSecurityNumberPlain,
  ssnType: clearable(S.ssnType.unwrap()),
  vatin: S.vatin,
  onBehalfOf: clearable(S.onBehalfOf.unwrap()),
  storeAsContact: S.storeAsContact,
  language: S.language.unwrap().optional(),
  role: S.role.unwrap().optional(),
  signOrder: S.signOrder.unwrap().optional(),
  channel: S.channel.unwrap().optional(),
  cpr: clearable(S.cpr.unwrap()),
  cvr: clearable(S.cvr.unwrap()),
  activeAt: S.activeAt.unwrap().optional(),
  expireAt: S.expireAt.unwrap().optional(),
});

/** `PUT signingrequests/{id}`: the signing request's fields (the keys of SIGNING_REQUEST_FIELDS). */
export const ZSigningRequestPatch = z.strictObject({
  email: clearable(S.email.unwrap()),
  emailSubject: clearable(S.emailSubject.unwrap()),
  emailText: clearable(S.emailText.unwrap()),
  reminderEmailSubject: clearable(S.reminderEmailSubject.unwrap()),
  reminderEmailText: clearable(S.reminderEmailText.unwrap()),
  completedEmailSubject: clearable(S.completedEmailSubject.unwrap()),
  completedEmailText: clearable(S.completedEmailText.unwrap()),
  emailFormat: clearable(S.emailFormat.unwrap()),
  successUrl: clearable(S.successUrl.unwrap()),
  failUrl: clearable(S.failUrl.unwrap()),
  reminderInterval: clearable(S.reminderInterval.unwrap()),
  accessControl: S.accessControl,
  enableInsecureSigning: S.enableInsecureSigning.unwrap().optional(),
  insecureSigningMethods: S.insecureSigningMethods,
  secureSigningMethods: S.secureSigningMethods,
});

/** `PUT casefiles/{cf}/recipients/{id}`: name and email, as the create's ccRecipients. */
export const ZCopyRecipientPatch = z.strictObject({
  name: ZCcRecipient.shape.name.optional(),
  email: ZCcRecipient.shape.email.optional(),
});

export type TSignerPatch = z.output<typeof ZSignerPatch>;
export type TSigningRequestPatch = z.output<typeof ZSigningRequestPatch>;
export type TCopyRecipientPatch = z.output<typeof ZCopyRecipientPatch>;

// The lists above and the schemas name the same keys.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameSigner: Same<keyof TSignerPatch, (typeof SIGNER_FIELDS)[number]> = true;
const sameRequest: Same<keyof TSigningRequestPatch, (typeof SIGNING_REQUEST_FIELDS)[number]> = true;
void sameSigner;
void sameRequest;
