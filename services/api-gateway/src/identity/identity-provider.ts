import type { TSecureSigningMethod } from "@esign/schema";

/** Who the identity provider says logged in. `subject` is the provider's stable id for the person. */
export interface IdentityLogin {
  subject: string;
  method: TSecureSigningMethod;
  /** National id (e.g. CPR) when the provider discloses it; used for the signer's accessControl check. */
  nationalId: string | null;
}

export type LoginFailure = "cancelled" | "invalid";

export class IdentityLoginFailed extends Error {
  constructor(
    readonly reason: LoginFailure,
    message: string,
  ) {
    super(message);
    this.name = "IdentityLoginFailed";
  }
}

/**
 * The adapter every secure signing method goes through (MitID, BankID, itsme, ...). The gateway
 * sends the browser to `startLogin`'s URL with an opaque `state`; the provider sends it back to
 * `returnUrl` with `state` plus its own parameters, which `completeLogin` turns into an identity.
 */
export interface IdentityProvider {
  /** Shown to people and in logs; the simulator says so in its name. */
  readonly displayName: string;
  /** Origin the browser is sent to, for the signing page's Content-Security-Policy form-action. */
  readonly origin: string;
  startLogin(method: TSecureSigningMethod, state: string, returnUrl: string): URL;
  /** Throws IdentityLoginFailed when the login was cancelled or its answer does not verify. */
  completeLogin(params: Readonly<Record<string, string | undefined>>): Promise<IdentityLogin>;
}
