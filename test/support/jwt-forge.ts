import { createHmac } from "node:crypto";

/*
 * Hand-built JWTs for the negative token tests: jsonwebtoken is a dependency of the gateway only, and
 * building the three segments ourselves lets a test produce tokens no well-behaved library would sign
 * (alg "none", an RS256 header over an HMAC signature, ...).
 */

/** The gateway's development defaults (packages/config/src/load-config.ts). */
export const DEV_JWT = {
  secret: "development-only-jwt-secret-do-not-use-in-production",
  issuer: "esign-api-gateway",
  audience: "esign-api",
} as const;

const b64url = (input: Buffer | string) => Buffer.from(input).toString("base64url");

export type HmacAlg = "HS256" | "HS384" | "HS512";

const HASH: Record<HmacAlg, string> = { HS256: "sha256", HS384: "sha384", HS512: "sha512" };

export interface ForgeOptions {
  /** The `alg` written into the header; defaults to the signing algorithm. */
  headerAlg?: string;
  /** How the signature is made: an HMAC algorithm, or "none" for an unsigned token. */
  signWith?: HmacAlg | "none";
  secret?: string;
  header?: Record<string, unknown>;
}

export function forgeJwt(payload: Record<string, unknown>, opts: ForgeOptions = {}): string {
  const signWith = opts.signWith ?? "HS256";
  const header = { alg: opts.headerAlg ?? signWith, typ: "JWT", ...opts.header };
  const signingInput = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  if (signWith === "none") return `${signingInput}.`;
  const sig = createHmac(HASH[signWith], opts.secret ?? DEV_JWT.secret)
    .update(signingInput)
    .digest();
  return `${signingInput}.${b64url(sig)}`;
}

/** Claims shaped like the gateway's own tokens (sub = user id, cid = customer id, azp = client id). */
export function gatewayClaims(p: { userId: number; customerId: number; clientId: string }, overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: String(p.userId),
    cid: p.customerId,
    azp: p.clientId,
    iat: now,
    exp: now + 600,
    iss: DEV_JWT.issuer,
    aud: DEV_JWT.audience,
    jti: `forged-${now}-${Math.random().toString(36).slice(2)}`,
    ...overrides,
  };
}
