import { INSECURE_SIGNING_METHODS, SECURE_SIGNING_METHODS, type TInsecureSigningMethod, type TSecureSigningMethod } from "@esign/schema";

export interface MethodFacts {
  enableInsecureSigning: boolean;
  insecureSigningMethods: readonly string[];
  secureSigningMethods: readonly string[];
}

export interface AllowedMethods {
  insecure: TInsecureSigningMethod[];
  secure: TSecureSigningMethod[];
}

const isInsecure = (m: string): m is TInsecureSigningMethod => (INSECURE_SIGNING_METHODS as readonly string[]).includes(m);
export const isSecureMethod = (m: string): m is TSecureSigningMethod => (SECURE_SIGNING_METHODS as readonly string[]).includes(m);

/**
 * Insecure methods only with enableInsecureSigning; an empty list then means all three (the create
 * payload cannot express "enabled, but no method", and omitted lists mean "all" for secure methods
 * too). Secure methods are the signer's list, already resolved against the account at creation.
 */
export function allowedMethods(signer: MethodFacts): AllowedMethods {
  const listed = signer.insecureSigningMethods.filter(isInsecure);
  const insecure = !signer.enableInsecureSigning
    ? []
    : listed.length > 0
      ? INSECURE_SIGNING_METHODS.filter((m) => listed.includes(m))
      : [...INSECURE_SIGNING_METHODS];
  return { insecure, secure: signer.secureSigningMethods.filter(isSecureMethod) };
}

export function describeAllowed(a: AllowedMethods): string {
  const all = [...a.insecure, ...a.secure.map((m) => `${m} (through the identity provider)`)];
  return all.length > 0 ? all.join(", ") : "none";
}
