import type { OidcMethodSettings } from "@esign/config";
import type { TSecureSigningMethod } from "@esign/schema";
import {
  IdentityLoginFailed,
  IdentityProviderUnavailable,
  type IdentityLogin,
  type IdentityProvider,
  type LoginAnswer,
  type LoginRequest,
} from "./identity-provider";
import { OidcRelyingParty, type OidcClientSettings } from "./oidc-relying-party";

export interface OidcSettings extends OidcClientSettings {
  /** Scopes of every login unless the method names its own. */
  scopes: string;
  /** Claim with the national id unless the method names its own. */
  nationalIdClaim: string | undefined;
  methods: Partial<Record<TSecureSigningMethod, OidcMethodSettings>>;
  displayName: string;
}

/** A claim's value as a national id: strings as they are, numbers written out; anything else is no id. */
function claimText(claims: Readonly<Record<string, unknown>>, name: string): string | null {
  const value = claims[name];
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return null;
}

/**
 * A real identity provider: an OpenID Connect relying party (oidc-relying-party.ts: code flow with
 * PKCE, state, nonce, nothing in a replica's memory) for a broker that fronts the national eIDs
 * (MitID, BankID SE/NO, FTN, itsme, ...). The state is the gateway's sealed, browser-bound login
 * state. Each secure method carries its own `acr_values`, scopes or `login_hint`; when a method asks
 * for an `acr`, the ID token must name one of them. The national id for accessControl is read from
 * the ID token, else from userinfo.
 */
export class OidcIdentityProvider implements IdentityProvider {
  readonly displayName: string;
  private readonly party: OidcRelyingParty;

  constructor(
    private readonly settings: OidcSettings,
    encryptionKey: string,
  ) {
    this.displayName = settings.displayName;
    this.party = new OidcRelyingParty(settings, encryptionKey, "oidc-login-secrets");
  }

  /** Where the browser is sent: the authorization endpoint's origin once known, the issuer's before. */
  get origin(): string {
    return this.party.origin;
  }

  supports(method: TSecureSigningMethod): boolean {
    return this.settings.methods[method] !== undefined;
  }

  /** Reads the provider's metadata early, so the first signer does not wait for it; a failure is only logged by the caller. */
  warmUp(): Promise<void> {
    return this.party.warmUp();
  }

  private methodSettings(method: TSecureSigningMethod): OidcMethodSettings {
    const settings = this.settings.methods[method];
    if (!settings) throw new IdentityProviderUnavailable(`The OpenID provider is not set up for "${method}" (OIDC_METHODS)`);
    return settings;
  }

  startLogin(request: LoginRequest): Promise<URL> {
    const method = this.methodSettings(request.method);
    const extra: Record<string, string> = { ui_locales: request.language };
    if (method.acrValues) extra.acr_values = method.acrValues;
    if (method.loginHint) extra.login_hint = method.loginHint;
    return this.party.authorizationUrl({ ...request, scope: method.scope ?? this.settings.scopes, extra });
  }

  async completeLogin(answer: LoginAnswer): Promise<IdentityLogin> {
    const method = this.methodSettings(answer.method);
    const login = await this.party.completeLogin(answer);
    const { claims } = login;
    if (method.acrValues) {
      const accepted = method.acrValues.split(/\s+/);
      if (typeof claims.acr !== "string" || !accepted.includes(claims.acr)) {
        throw new IdentityLoginFailed("invalid", `The identity provider vouched with acr "${String(claims.acr ?? "none")}", not one of "${method.acrValues}"`);
      }
    }
    const claimName = method.nationalIdClaim ?? this.settings.nationalIdClaim;
    let nationalId = claimName ? claimText(claims, claimName) : null;
    if (claimName && nationalId === null) {
      const info = await login.userInfo();
      nationalId = info ? claimText(info, claimName) : null;
    }
    return { subject: claims.sub, method: answer.method, nationalId };
  }
}
