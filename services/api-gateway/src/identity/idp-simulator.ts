import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import { ZSecureSigningMethod, type TSecureSigningMethod } from "@esign/schema";
import { IdentityLoginFailed, type IdentityLogin, type IdentityProvider, type LoginAnswer, type LoginRequest } from "./identity-provider";
import { SECURE_CALLBACK_PATH } from "./callback-path";
import { deriveKey, seal, unixNow, unseal } from "./sealed-value";

export const IDP_SIMULATOR_PATH = "/idp-simulator/authorize";
export const IDP_SIMULATOR_NAME = "Identity provider SIMULATOR";

/** An authorization code lives as long as a real provider's: long enough to follow one redirect. */
const CODE_TTL_SECONDS = 120;

const ZCode = z.object({
  exp: z.number(),
  /** sha256 of the state the code was issued for: a code answers exactly one login. */
  st: z.string(),
  m: ZSecureSigningMethod,
  sub: z.string(),
  nid: z.string().nullable(),
});

const stateDigest = (state: string) => createHash("sha256").update(state).digest("base64url");

/**
 * Development stand-in for a real eID provider. It keeps no memory: its codes are sealed values
 * bound to the login's state, so any replica can complete any login. Never used in production
 * (see createIdentityProvider).
 */
export class IdentityProviderSimulator implements IdentityProvider {
  readonly displayName = IDP_SIMULATOR_NAME;
  readonly origin: string;
  private readonly codeKey: Buffer;

  constructor(
    private readonly publicBaseUrl: string,
    encryptionKey: string,
  ) {
    this.origin = new URL(publicBaseUrl).origin;
    this.codeKey = deriveKey(encryptionKey, "idp-simulator-code");
  }

  supports(): boolean {
    return true;
  }

  async startLogin(request: LoginRequest): Promise<URL> {
    const url = new URL(IDP_SIMULATOR_PATH, this.publicBaseUrl);
    url.searchParams.set("method", request.method);
    url.searchParams.set("state", request.state);
    url.searchParams.set("redirect_uri", request.returnUrl);
    url.searchParams.set("ui_locales", request.language);
    return url;
  }

  /** Like a real provider's registered redirect URIs: only this gateway's signing callbacks. */
  allowsRedirect(redirectUri: string): boolean {
    let url: URL;
    try {
      url = new URL(redirectUri);
    } catch {
      return false;
    }
    return url.origin === this.origin && url.pathname === SECURE_CALLBACK_PATH && url.search === "";
  }

  /** The code the approve button hands back; `nationalId` is what the tester typed, if anything. */
  issueCode(method: TSecureSigningMethod, state: string, nationalId: string | null, now = Date.now()): string {
    const sub = `simulator:${method}:${randomUUID()}`;
    return seal({ exp: unixNow(now) + CODE_TTL_SECONDS, st: stateDigest(state), m: method, sub, nid: nationalId }, this.codeKey);
  }

  async completeLogin(answer: LoginAnswer): Promise<IdentityLogin> {
    if (answer.query.get("error")) throw new IdentityLoginFailed("cancelled", "The identity login was cancelled");
    const code = unseal(answer.query.get("code") ?? undefined, this.codeKey, ZCode);
    if (!code || code.st !== stateDigest(answer.state)) {
      throw new IdentityLoginFailed("invalid", "The identity provider's answer is invalid or expired");
    }
    return { subject: code.sub, method: code.m, nationalId: code.nid };
  }
}
