import { sha256Hex } from "@esign/db";

// The token itself is @esign/db's newSigningToken (the gateway makes links too: a draft's, when it
// is sent or activated).
export { newSigningToken } from "@esign/db";

export function hashSigningToken(token: string): string {
  return sha256Hex(token);
}

export function signingLinkUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/sign/${token}`;
}
