import type { TLanguage } from "@esign/i18n";
import type { TSecureSigningMethod } from "@esign/schema";

/** Who the identity provider says logged in. `subject` is the provider's stable id for the person. */
export interface IdentityLogin {
  subject: string;
  method: TSecureSigningMethod;
  /** National id (e.g. CPR) when the provider discloses it; used for the signer's accessControl check. */
  nationalId: string | null;
}

export type LoginFailure = "cancelled" | "invalid";

/** The login did not vouch for anyone: cancelled by the person, or an answer that does not verify. */
export class IdentityLoginFailed extends Error {
  constructor(
    readonly reason: LoginFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "IdentityLoginFailed";
  }
}

/** The provider could not be reached or answered out of turn: the signer may try again later. */
export class IdentityProviderUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "IdentityProviderUnavailable";
  }
}

export interface LoginRequest {
  method: TSecureSigningMethod;
  /** Opaque and sealed by the gateway; comes back unchanged in the callback. */
  state: string;
  /** The gateway's callback for this signing link. */
  returnUrl: string;
  /**
   * A secret only the browser that started the login holds (its login cookie); never put in a URL.
   * Adapters derive their per-login secrets from it (OpenID Connect: the PKCE verifier and the nonce),
   * so nothing about a login is kept in any replica's memory.
   */
  browserSecret: string;
  /** The signer's language, for the provider's own pages (OpenID Connect `ui_locales`). */
  language: TLanguage;
}

export interface LoginAnswer {
  /** The method the login was started for. */
  method: TSecureSigningMethod;
  state: string;
  returnUrl: string;
  browserSecret: string;
  /** The callback's query exactly as received (state, code, error, iss, ...). */
  query: URLSearchParams;
}

/**
 * The adapter every secure signing method goes through (MitID, BankID, itsme, ...). The gateway
 * sends the browser to `startLogin`'s URL; the provider sends it back to `returnUrl`, and
 * `completeLogin` turns that answer into an identity. Two adapters exist: the OpenID Connect one
 * (`oidc-identity-provider.ts`, for brokers fronting the national eIDs) and a development simulator.
 */
export interface IdentityProvider {
  /** Shown in the audit trail and in logs; the simulator says so in its name. */
  readonly displayName: string;
  /** Origin the browser is sent to, for the signing page's Content-Security-Policy form-action. */
  readonly origin: string;
  /** Whether this adapter is set up for the method (an OpenID Connect broker may front only some). */
  supports(method: TSecureSigningMethod): boolean;
  /** Throws IdentityProviderUnavailable when the provider cannot be reached. */
  startLogin(request: LoginRequest): Promise<URL>;
  /** Throws IdentityLoginFailed when cancelled or not verifiable, IdentityProviderUnavailable when unreachable. */
  completeLogin(answer: LoginAnswer): Promise<IdentityLogin>;
  /** Reaches the provider once at start (metadata, keys), so the first signer does not wait; failures are for logs only. */
  warmUp?(): Promise<void>;
}
