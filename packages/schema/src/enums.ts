import { z } from "zod";

/*
 * The closed value sets of the case-file API. Each list is frozen at runtime as well as `as const`,
 * so no consumer can widen an allowed set by mutating a shared array.
 */

export const LANGUAGES = Object.freeze(["en", "da", "sv", "nl", "fr", "fi", "no", "de"] as const);
export const ZLanguage = z.enum(LANGUAGES);
export type TLanguage = z.infer<typeof ZLanguage>;

export const SSN_TYPES = Object.freeze(["legacy", "dk:cpr", "se:pin", "no:nin", "be:nrn", "fi:pic", "sms"] as const);
export const ZSsnType = z.enum(SSN_TYPES);
export type TSsnType = z.infer<typeof ZSsnType>;

export const EMAIL_FORMATS = Object.freeze(["text", "html"] as const);
export const ZEmailFormat = z.enum(EMAIL_FORMATS);
export type TEmailFormat = z.infer<typeof ZEmailFormat>;

export const CHANNELS = Object.freeze(["email", "eboks"] as const);
export const ZChannel = z.enum(CHANNELS);
export type TChannel = z.infer<typeof ZChannel>;

export const INSECURE_SIGNING_METHODS = Object.freeze(["text", "draw", "image"] as const);
export const ZInsecureSigningMethod = z.enum(INSECURE_SIGNING_METHODS);
export type TInsecureSigningMethod = z.infer<typeof ZInsecureSigningMethod>;

export const SECURE_SIGNING_METHODS = Object.freeze([
  "mitid.dk",
  "bankid_se",
  "bankid_no",
  "itsme.be",
  "ftn.fi",
  "sms",
  "eid.belgium.be",
  "passport-reader.eident.dk",
  "ausweisapp.bund.de",
  "qes.personal.mitid.dk",
  "qes.erhverv.mitid.dk",
] as const);
export const ZSecureSigningMethod = z.enum(SECURE_SIGNING_METHODS);
export type TSecureSigningMethod = z.infer<typeof ZSecureSigningMethod>;
