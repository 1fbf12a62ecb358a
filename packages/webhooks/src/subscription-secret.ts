import { randomBytes } from "node:crypto";

export const SUBSCRIPTION_SECRET_PREFIX = "whsec_";

/** A new signing secret: 32 random bytes (256 bits, the HMAC-SHA256 key size) in base64url. */
export function newSubscriptionSecret(): string {
  return `${SUBSCRIPTION_SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
}
