import type { Request, Response } from "express";
import { z } from "zod";
import type { AppConfig } from "@esign/config";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { BrowserBoundLogins } from "../identity/browser-login";
import { IdentityLoginFailed, IdentityProviderUnavailable } from "../identity/identity-provider";
import { OidcRelyingParty } from "../identity/oidc-relying-party";
import { deriveKey } from "../identity/sealed-value";
import { SSO_CALLBACK_PATH, type SsoRefusal } from "./sso-schemas";

const LOGIN_TTL_SECONDS = 600;
const ZSsoLogin = z.object({ exp: z.number(), nh: z.string(), sso: z.literal(1) });

/** A refused single sign-on: an AppError for JSON clients, `reason` for the sign-in page's message. */
export class SsoRefused extends AppError {
  constructor(
    readonly reason: SsoRefusal,
    code: "invalid_login_state" | "login_session_missing" | "login_cancelled" | "login_failed" | "forbidden" | "identity_provider_unavailable",
    message: string,
  ) {
    super(code, message);
  }
}

/** The verified email of a login: the ID token's claims, else userinfo's (strict providers give scope claims there only). */
async function verifiedEmail(claims: Readonly<Record<string, unknown>>, userInfo: () => Promise<Readonly<Record<string, unknown>> | null>): Promise<string> {
  const source = typeof claims.email === "string" ? claims : ((await userInfo()) ?? {});
  const email = typeof source.email === "string" ? source.email.trim() : "";
  if (!email) throw new SsoRefused("failed", "login_failed", "The provider did not tell the email (the `email` claim; is the email scope in SSO_OIDC_SCOPES?)");
  if (source.email_verified !== true)
    throw new SsoRefused("email_unverified", "login_failed", `The provider does not vouch that ${email} is verified (email_verified)`);
  return email;
}

/**
 * Single sign-on of the web application's users through an OpenID provider: the same relying party
 * as the signers' eIDs (identity/oidc-relying-party.ts) and the same browser-bound, sealed login state
 * (identity/browser-login.ts). It finds users, it never makes them: the provider vouches for a verified
 * email, and the existing, enabled web-application user with that email (ignoring case; at most one
 * user with a password has it) is signed in.
 */
export class SingleSignOn {
  private readonly party: OidcRelyingParty;
  private readonly logins: BrowserBoundLogins<typeof ZSsoLogin>;
  private readonly callbackUrl: string;

  constructor(
    private readonly ctx: GatewayContext,
    readonly displayName: string,
    private readonly scopes: string,
    party: OidcRelyingParty,
  ) {
    const config = ctx.config;
    this.party = party;
    this.callbackUrl = `${config.PUBLIC_BASE_URL}${SSO_CALLBACK_PATH}`;
    this.logins = new BrowserBoundLogins(
      {
        key: deriveKey(config.ENCRYPTION_KEY, "sso-login-state"),
        cookie: "esign_sso_login",
        path: SSO_CALLBACK_PATH,
        ttlSeconds: LOGIN_TTL_SECONDS,
        secure: config.PUBLIC_BASE_URL.startsWith("https:"),
      },
      ZSsoLogin,
    );
  }

  warmUp(): Promise<void> {
    return this.party.warmUp();
  }

  /** Sets the login cookie and answers the provider's authorization URL. */
  async start(res: Response): Promise<URL> {
    const { state, browserSecret } = this.logins.start(res, { sso: 1 });
    return this.party.authorizationUrl({ state, browserSecret, returnUrl: this.callbackUrl, scope: this.scopes, extra: {} }).catch((err: unknown) => {
      if (err instanceof IdentityProviderUnavailable) throw new SsoRefused("unavailable", "identity_provider_unavailable", err.message);
      throw err;
    });
  }

  /** The user the callback signs in: state, this browser's cookie, the code and ID token, a verified email of an enabled user. */
  async finish(req: Request, res: Response): Promise<number> {
    // The provider's answer goes on to the OpenID client exactly as it came (every parameter).
    const query = new URLSearchParams(req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?") + 1) : "");
    const state = query.get("state") ?? "";
    const login = this.logins.open(state);
    if (!login) throw new SsoRefused("failed", "invalid_login_state", "The sign-in is invalid or expired; start it again from the sign-in page");
    const browserSecret = this.logins.finish(req, res, login);
    if (!browserSecret) {
      throw new SsoRefused(
        "failed",
        "login_session_missing",
        "This sign-in was started in another browser or already used; start it again from the sign-in page",
      );
    }
    let email: string;
    try {
      const verified = await this.party.completeLogin({ state, browserSecret, returnUrl: this.callbackUrl, query });
      email = await verifiedEmail(verified.claims, () => verified.userInfo());
    } catch (err) {
      if (err instanceof IdentityLoginFailed) {
        throw err.reason === "cancelled" ? new SsoRefused("cancelled", "login_cancelled", err.message) : new SsoRefused("failed", "login_failed", err.message);
      }
      if (err instanceof IdentityProviderUnavailable) throw new SsoRefused("unavailable", "identity_provider_unavailable", err.message);
      throw err;
    }
    const user = await this.ctx.db.user.findFirst({
      where: { email: { equals: email, mode: "insensitive" }, passwordHash: { not: null } },
      select: { id: true, disabledAt: true },
    });
    if (!user || user.disabledAt) {
      throw new SsoRefused("unknown_user", "forbidden", `No enabled user of the web application has the email ${email}; an administrator can invite it`);
    }
    return user.id;
  }
}

/** The configured single sign-on, or null when SSO_OIDC_ISSUER is unset (loadConfig has refused an issuer without a client). */
export function createSingleSignOn(ctx: GatewayContext): SingleSignOn | null {
  const config: AppConfig = ctx.config;
  if (!config.SSO_OIDC_ISSUER) return null;
  const party = new OidcRelyingParty(
    {
      issuer: config.SSO_OIDC_ISSUER,
      clientId: config.SSO_OIDC_CLIENT_ID ?? "",
      clientSecret: config.SSO_OIDC_CLIENT_SECRET ?? "",
      clientAuth: config.SSO_OIDC_CLIENT_AUTH,
      timeoutSeconds: config.OIDC_TIMEOUT_SECONDS,
      allowHttp: !config.production,
    },
    config.ENCRYPTION_KEY,
    "sso-login-secrets",
  );
  return new SingleSignOn(ctx, config.SSO_DISPLAY_NAME, config.SSO_OIDC_SCOPES, party);
}
