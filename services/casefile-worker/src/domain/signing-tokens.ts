import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes: unguessable. Only the sha256 is stored; the token lives in the link alone. */
export function newSigningToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashSigningToken(token) };
}

export function hashSigningToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function signingLinkUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/sign/${token}`;
}
