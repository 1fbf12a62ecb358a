import { createHmac } from "node:crypto";
import * as oidc from "openid-client";
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
import { deriveKey } from "./sealed-value";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  clientAuth: "client_secret_basic" | "client_secret_post";
  /** Scopes of every login unless the method names its own. */
  scopes: string;
  /** Claim with the national id unless the method names its own. */
  nationalIdClaim: string | undefined;
  methods: Partial<Record<TSecureSigningMethod, OidcMethodSettings>>;
  displayName: string;
  timeoutSeconds: number;
  /** Plain-http issuers (a local broker, the tests' provider); never in production (config refuses it). */
  allowHttp: boolean;
}

/** Provider metadata is read again after this long; signing keys follow their own rotation (an unknown kid refetches). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

const unavailableCodes = new Set(["OAUTH_TIMEOUT", "OAUTH_ABORT", "OAUTH_RESPONSE_IS_NOT_CONFORM", "OAUTH_RESPONSE_IS_NOT_JSON"]);

/** The library's reason, with the detail its cause carries ("unexpected JWT "nonce" claim value"). */
function reasonOf(err: Error): string {
  const cause = err.cause instanceof Error && err.cause.message !== err.message ? `: ${err.cause.message}` : "";
  return `${err.message}${cause}`;
}

/** openid-client's failures as the adapter interface names them: cancelled, not verifiable, or provider unreachable. */
function classify(err: unknown): Error {
  if (err instanceof oidc.AuthorizationResponseError) {
    const detail = err.error_description ? ` (${err.error_description})` : "";
    return new IdentityLoginFailed(err.error === "access_denied" ? "cancelled" : "invalid", `The identity provider answered "${err.error}"${detail}`, {
      cause: err,
    });
  }
  if (err instanceof oidc.ResponseBodyError) {
    if (err.status >= 500) return new IdentityProviderUnavailable(`The identity provider failed (HTTP ${err.status})`, { cause: err });
    return new IdentityLoginFailed(
      "invalid",
      `The identity provider refused the authorization code: ${err.error}${err.error_description ? ` (${err.error_description})` : ""}`,
      { cause: err },
    );
  }
  if (err instanceof TypeError) return new IdentityProviderUnavailable(`The identity provider cannot be reached: ${reasonOf(err)}`, { cause: err });
  if (err instanceof oidc.ClientError) {
    if (err.code && unavailableCodes.has(err.code))
      return new IdentityProviderUnavailable(`The identity provider cannot be used right now: ${reasonOf(err)}`, { cause: err });
    return new IdentityLoginFailed("invalid", `The identity provider's answer does not verify: ${reasonOf(err)}`, { cause: err });
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** A claim's value as a national id: strings as they are, numbers written out; anything else is no id. */
function claimText(claims: Readonly<Record<string, unknown>>, name: string): string | null {
  const value = claims[name];
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return null;
}

/**
 * A real identity provider: an OpenID Connect relying party (openid-client) for a broker that fronts
 * the national eIDs (MitID, BankID SE/NO, FTN, itsme, ...). Authorization code flow with PKCE
 * (S256), state (the gateway's sealed, browser-bound login state) and nonce. The PKCE verifier and
 * the nonce are derived from the browser's login cookie and a key of this gateway, so nothing about
 * a login lives in a replica's memory and no secret travels in a URL. Each secure method carries its
 * own `acr_values`, scopes or `login_hint`; when a method asks for an `acr`, the ID token must name
 * one of them. The national id for accessControl is read from the ID token, else from userinfo.
 */
export class OidcIdentityProvider implements IdentityProvider {
  readonly displayName: string;
  private discovered: { at: number; config: Promise<oidc.Configuration> } | null = null;
  private authorizationOrigin: string | null = null;
  private readonly secretKey: Buffer;

  constructor(
    private readonly settings: OidcSettings,
    encryptionKey: string,
  ) {
    this.displayName = settings.displayName;
    this.secretKey = deriveKey(encryptionKey, "oidc-login-secrets");
  }

  /** Where the browser is sent: the authorization endpoint's origin once known, the issuer's before. */
  get origin(): string {
    return this.authorizationOrigin ?? new URL(this.settings.issuer).origin;
  }

  supports(method: TSecureSigningMethod): boolean {
    return this.settings.methods[method] !== undefined;
  }

  /** Reads the provider's metadata early, so the first signer does not wait for it; a failure is only logged by the caller. */
  warmUp(): Promise<void> {
    return this.configuration().then(() => undefined);
  }

  private configuration(): Promise<oidc.Configuration> {
    const now = Date.now();
    if (this.discovered && now - this.discovered.at < DISCOVERY_TTL_MS) return this.discovered.config;
    const s = this.settings;
    const auth = s.clientAuth === "client_secret_post" ? oidc.ClientSecretPost(s.clientSecret) : oidc.ClientSecretBasic(s.clientSecret);
    const config = oidc
      .discovery(new URL(s.issuer), s.clientId, undefined, auth, { timeout: s.timeoutSeconds, execute: s.allowHttp ? [oidc.allowInsecureRequests] : [] })
      .then((c) => {
        const endpoint = c.serverMetadata().authorization_endpoint;
        if (endpoint) this.authorizationOrigin = new URL(endpoint).origin;
        return c;
      })
      .catch((err: unknown) => {
        // Not cached: the next login tries again.
        this.discovered = null;
        const failure = classify(err);
        throw failure instanceof IdentityProviderUnavailable
          ? failure
          : new IdentityProviderUnavailable(`OpenID provider discovery failed: ${failure.message}`, { cause: err });
      });
    this.discovered = { at: now, config };
    return config;
  }

  /** The login's PKCE verifier (43 characters, as RFC 7636 asks) and nonce, from the browser's secret. */
  private secrets(browserSecret: string): { codeVerifier: string; nonce: string } {
    const derive = (purpose: string) => createHmac("sha256", this.secretKey).update(`${purpose}\n${browserSecret}`).digest("base64url");
    return { codeVerifier: derive("pkce-code-verifier"), nonce: derive("nonce") };
  }

  private methodSettings(method: TSecureSigningMethod): OidcMethodSettings {
    const settings = this.settings.methods[method];
    if (!settings) throw new IdentityProviderUnavailable(`The OpenID provider is not set up for "${method}" (OIDC_METHODS)`);
    return settings;
  }

  async startLogin(request: LoginRequest): Promise<URL> {
    const method = this.methodSettings(request.method);
    const config = await this.configuration();
    const { codeVerifier, nonce } = this.secrets(request.browserSecret);
    const params: Record<string, string> = {
      response_type: "code",
      redirect_uri: request.returnUrl,
      scope: method.scope ?? this.settings.scopes,
      state: request.state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
      ui_locales: request.language,
    };
    if (method.acrValues) params.acr_values = method.acrValues;
    if (method.loginHint) params.login_hint = method.loginHint;
    return oidc.buildAuthorizationUrl(config, params);
  }

  async completeLogin(answer: LoginAnswer): Promise<IdentityLogin> {
    const method = this.methodSettings(answer.method);
    const config = await this.configuration();
    const { codeVerifier, nonce } = this.secrets(answer.browserSecret);
    const current = new URL(answer.returnUrl);
    for (const [name, value] of answer.query) current.searchParams.append(name, value);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: codeVerifier,
        expectedState: answer.state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw classify(err);
    }
    const claims = tokens.claims();
    if (!claims) throw new IdentityLoginFailed("invalid", "The identity provider returned no ID token");
    if (method.acrValues) {
      const accepted = method.acrValues.split(/\s+/);
      if (typeof claims.acr !== "string" || !accepted.includes(claims.acr)) {
        throw new IdentityLoginFailed("invalid", `The identity provider vouched with acr "${String(claims.acr ?? "none")}", not one of "${method.acrValues}"`);
      }
    }
    const claimName = method.nationalIdClaim ?? this.settings.nationalIdClaim;
    let nationalId = claimName ? claimText(claims, claimName) : null;
    // Brokers that follow OpenID Connect strictly give scope-requested claims from userinfo only.
    if (claimName && nationalId === null && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
      try {
        nationalId = claimText(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub), claimName);
      } catch (err) {
        throw classify(err);
      }
    }
    return { subject: claims.sub, method: answer.method, nationalId };
  }
}
