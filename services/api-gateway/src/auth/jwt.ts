import { createSecretKey, randomUUID, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import { z } from "zod";
import type { AppConfig } from "@esign/config";
import type { TokenAnswer } from "./token-schemas";

/** Who a verified token speaks for. */
export interface Principal {
  userId: number;
  customerId: number;
  clientId: string;
  /**
   * Unix milliseconds the access token was issued at (absent for WSSE, checked against the live
   * secret): a rotation in the same second as a token's issue must still tell before from after.
   */
  issuedAtMs?: number;
}

/** What signs and checks a token. */
export type TokenSettings = Pick<AppConfig, "JWT_SECRET" | "JWT_ISSUER" | "JWT_AUDIENCE">;

// One algorithm, pinned on both sides: a token with another `alg` (or `none`) never verifies.
const ALGORITHM = "HS256" as const;

const ZClaims = z.object({
  sub: z.string().regex(/^\d+$/),
  cid: z.number().int().positive(),
  azp: z.string(),
  exp: z.number(),
  iat: z.number().optional(),
  /** The issue time in milliseconds (our own claim; `iat` is whole seconds by RFC 7519). */
  iatms: z.number().optional(),
});

// jsonwebtoken turns a string secret into a key on every call, first trying it as a PEM public key
// and catching the failure: ~1.5 ms of CPU per verified request (bench/README.md). A KeyObject skips it.
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, "utf8"))));
  return key;
}

export type IssuedToken = Pick<TokenAnswer, "access_token" | "token_type" | "expires_in" | "access_token_expires_at">;

export function issueToken(config: TokenSettings & Pick<AppConfig, "JWT_TTL_SECONDS">, principal: Principal): IssuedToken {
  const nowMs = Date.now();
  const now = Math.floor(nowMs / 1000);
  const exp = now + config.JWT_TTL_SECONDS;
  const token = jwt.sign({ cid: principal.customerId, azp: principal.clientId, iat: now, iatms: nowMs, exp }, keyOf(config.JWT_SECRET), {
    algorithm: ALGORITHM,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    subject: String(principal.userId),
    jwtid: randomUUID(),
  });
  return { access_token: token, token_type: "Bearer", expires_in: config.JWT_TTL_SECONDS, access_token_expires_at: exp };
}

/**
 * Tokens this process has verified, to what they said: an integrator sends the same token with every
 * request for its whole lifetime, and jsonwebtoken's verify (decode, HMAC, claim checks, then the
 * claims' schema) was ~4% of the gateway's CPU per create (bench/README.md). A hit needs the very
 * same string (signature included), so nothing unverified gets in; the expiry is checked on every
 * hit, so a cached token stops working exactly when a verified one would. One cache per secret,
 * issuer and audience; bounded, the oldest entry goes first.
 */
const VERIFIED_CACHE_MAX = 10_000;
interface Verified {
  principal: Principal;
  exp: number;
}
const verifiedBySetting = new Map<string, Map<string, Verified>>();

function verifiedCache(config: TokenSettings): Map<string, Verified> {
  const setting = `${config.JWT_SECRET}\u0000${config.JWT_ISSUER}\u0000${config.JWT_AUDIENCE}`;
  let cache = verifiedBySetting.get(setting);
  if (!cache) verifiedBySetting.set(setting, (cache = new Map()));
  return cache;
}

/** Returns the principal, or null for any token that is not ours, not for us, or expired. */
export function verifyToken(config: TokenSettings, token: string, nowMs: number = Date.now()): Principal | null {
  const now = Math.floor(nowMs / 1000);
  const cache = verifiedCache(config);
  const hit = cache.get(token);
  if (hit) {
    // jsonwebtoken's rule: expired once the clock reaches exp.
    if (now < hit.exp) return hit.principal;
    cache.delete(token);
    return null;
  }
  try {
    const decoded = jwt.verify(token, keyOf(config.JWT_SECRET), {
      algorithms: [ALGORITHM],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      complete: false,
      clockTimestamp: now,
    });
    const claims = ZClaims.safeParse(decoded);
    if (!claims.success) return null;
    const principal: Principal = Object.freeze({
      userId: Number(claims.data.sub),
      customerId: claims.data.cid,
      clientId: claims.data.azp,
      ...(claims.data.iatms !== undefined ? { issuedAtMs: claims.data.iatms } : claims.data.iat !== undefined ? { issuedAtMs: claims.data.iat * 1000 } : {}),
    });
    if (cache.size >= VERIFIED_CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(token, { principal, exp: claims.data.exp });
    return principal;
  } catch {
    return null;
  }
}
