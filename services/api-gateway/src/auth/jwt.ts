import { createSecretKey, randomUUID, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import { z } from "zod";
import type { AppConfig } from "@esign/config";

/** Who a verified token speaks for. */
export interface Principal {
  userId: number;
  customerId: number;
  clientId: string;
}

// One algorithm, pinned on both sides: a token with another `alg` (or `none`) never verifies.
const ALGORITHM = "HS256" as const;

const ZClaims = z.object({
  sub: z.string().regex(/^\d+$/),
  cid: z.number().int().positive(),
  azp: z.string(),
  exp: z.number(),
});

// jsonwebtoken turns a string secret into a key on every call, first trying it as a PEM public key
// and catching the failure: ~1.5 ms of CPU per verified request (bench/README.md). A KeyObject skips it.
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, "utf8"))));
  return key;
}

export interface IssuedToken {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  access_token_expires_at: number;
}

export function issueToken(config: AppConfig, principal: Principal): IssuedToken {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + config.JWT_TTL_SECONDS;
  const token = jwt.sign({ cid: principal.customerId, azp: principal.clientId, iat: now, exp }, keyOf(config.JWT_SECRET), {
    algorithm: ALGORITHM,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    subject: String(principal.userId),
    jwtid: randomUUID(),
  });
  return { access_token: token, token_type: "Bearer", expires_in: config.JWT_TTL_SECONDS, access_token_expires_at: exp };
}

/** Returns the principal, or null for any token that is not ours, not for us, or expired. */
export function verifyToken(config: AppConfig, token: string): Principal | null {
  try {
    const decoded = jwt.verify(token, keyOf(config.JWT_SECRET), {
      algorithms: [ALGORITHM],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      complete: false,
    });
    const claims = ZClaims.safeParse(decoded);
    if (!claims.success) return null;
    return { userId: Number(claims.data.sub), customerId: claims.data.cid, clientId: claims.data.azp };
  } catch {
    return null;
  }
}
