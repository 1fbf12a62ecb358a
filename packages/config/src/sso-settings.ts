import { z } from "zod";
import { OIDC_CLIENT_SCHEMA } from "./identity-settings";

/**
 * Single sign-on for the web application's users through an OpenID provider (the customer's own:
 * Entra ID, Google Workspace, Okta, ...). Off unless SSO_OIDC_ISSUER is set. It only signs in users
 * that exist: the provider vouches for a verified email, the gateway finds that user.
 */
export const SSO_SETTINGS = {
  /** The OpenID provider's issuer identifier; discovery reads `<issuer>/.well-known/openid-configuration`. */
  SSO_OIDC_ISSUER: OIDC_CLIENT_SCHEMA.issuer,
  SSO_OIDC_CLIENT_ID: OIDC_CLIENT_SCHEMA.clientId,
  SSO_OIDC_CLIENT_SECRET: OIDC_CLIENT_SCHEMA.clientSecret,
  /** How the gateway authenticates at the token endpoint. */
  SSO_OIDC_CLIENT_AUTH: OIDC_CLIENT_SCHEMA.clientAuth,
  /** Must include openid; `email` is what gives the claims the sign-in matches users by. */
  SSO_OIDC_SCOPES: OIDC_CLIENT_SCHEMA.scopes("openid email profile"),
  /** The button's words: "Sign in with <SSO_DISPLAY_NAME>". */
  SSO_DISPLAY_NAME: z.string().min(1).max(100).default("single sign-on"),
};

const ZSsoSettings = z.object(SSO_SETTINGS);
type SsoEnv = z.output<typeof ZSsoSettings> & { NODE_ENV: string };

/** What single sign-on cannot run without, and what production does not accept. */
export function ssoSettingProblems(env: SsoEnv): string[] {
  if (!env.SSO_OIDC_ISSUER) return [];
  const problems: string[] = [];
  for (const name of ["SSO_OIDC_CLIENT_ID", "SSO_OIDC_CLIENT_SECRET"] as const) if (!env[name]) problems.push(`${name}: required with SSO_OIDC_ISSUER`);
  if (env.NODE_ENV === "production" && !env.SSO_OIDC_ISSUER.startsWith("https:")) problems.push("SSO_OIDC_ISSUER: must be https in production");
  return problems;
}
