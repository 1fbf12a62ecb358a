import { createHmac } from "node:crypto";
import * as oidc from "openid-client";
import { IdentityLoginFailed, IdentityProviderUnavailable } from "./identity-provider";
import { deriveKey } from "./sealed-value";

/** How the gateway reaches one OpenID provider as a client. */
export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  clientAuth: "client_secret_basic" | "client_secret_post";
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

/** What a verified authorization code gave: the ID token's claims, and userinfo on demand. */
export interface OidcLogin {
  claims: oidc.IDToken;
  /** The userinfo endpoint's claims, or null when the provider has none or gave no access token. */
  userInfo(): Promise<Readonly<Record<string, unknown>> | null>;
}

/**
 * The relying party both OpenID Connect logins share (signers' eIDs: oidc-identity-provider.ts; the
 * web application's single sign-on: users/sso): discovery (cached, retried after a failure), the
 * authorization URL with state, nonce and PKCE (S256), and the code exchange with the ID token
 * verified (signature by the provider's JWKS, issuer, audience, nonce). The PKCE verifier and the
 * nonce are derived from a secret only the starting browser holds (its login cookie) and a key of
 * this gateway, so nothing about a login lives in a replica's memory and no secret travels in a URL.
 */
export class OidcRelyingParty {
  private discovered: { at: number; config: Promise<oidc.Configuration> } | null = null;
  private authorizationOrigin: string | null = null;
  private readonly secretKey: Buffer;

  /** `purpose`: one key per use, so one use's login cookie derives nothing for another. */
  constructor(
    private readonly settings: OidcClientSettings,
    encryptionKey: string,
    purpose: string,
  ) {
    this.secretKey = deriveKey(encryptionKey, purpose);
  }

  /** Where the browser is sent: the authorization endpoint's origin once known, the issuer's before. */
  get origin(): string {
    return this.authorizationOrigin ?? new URL(this.settings.issuer).origin;
  }

  /** Reads the provider's metadata early, so the first login does not wait for it; a failure is only logged by the caller. */
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

  /** The provider's authorization URL: code flow, `scope`, state, nonce, PKCE, plus `extra` parameters (acr_values, ui_locales, ...). */
  async authorizationUrl(login: { state: string; returnUrl: string; browserSecret: string; scope: string; extra: Record<string, string> }): Promise<URL> {
    const config = await this.configuration();
    const { codeVerifier, nonce } = this.secrets(login.browserSecret);
    return oidc.buildAuthorizationUrl(config, {
      response_type: "code",
      redirect_uri: login.returnUrl,
      scope: login.scope,
      state: login.state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
      ...login.extra,
    });
  }

  /**
   * Exchanges the callback's code (the query exactly as received) and verifies the ID token. Throws
   * IdentityLoginFailed when cancelled or not verifiable, IdentityProviderUnavailable when unreachable.
   */
  async completeLogin(answer: { state: string; returnUrl: string; browserSecret: string; query: URLSearchParams }): Promise<OidcLogin> {
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
    const accessToken = tokens.access_token;
    return {
      claims,
      // Brokers that follow OpenID Connect strictly give scope-requested claims from userinfo only.
      async userInfo() {
        if (!accessToken || !config.serverMetadata().userinfo_endpoint) return null;
        try {
          return await oidc.fetchUserInfo(config, accessToken, claims.sub);
        } catch (err) {
          throw classify(err);
        }
      },
    };
  }
}
