import { z } from "zod";
import { component } from "../contract/components";

/** Where the single sign-on routes live (the callback is the redirect URI registered at the provider). */
export const SSO_PATH = "/api/v3/session/sso";
export const SSO_START_PATH = `${SSO_PATH}/start`;
export const SSO_CALLBACK_PATH = `${SSO_PATH}/callback`;

export const ZSsoConfig = component(
  "SsoConfig",
  z
    .object({
      enabled: z.boolean().describe("Whether single sign-on is configured (SSO_OIDC_ISSUER)"),
      displayName: z.string().nullable().describe('The provider\'s name for the button: "Sign in with <displayName>"'),
      startUrl: z.string().nullable().describe("Where the browser goes to sign in with it (a plain navigation, not a fetch)"),
    })
    .describe("Whether the web application offers single sign-on"),
);
export type SsoConfig = z.infer<typeof ZSsoConfig>;

// Checked against the sealed login state; everything else the provider adds goes on to the OpenID client too.
export const ZSsoCallbackQuery = z.object({
  state: z.string().optional().describe("The sealed login state the gateway gave the provider"),
  code: z.string().optional().describe("The provider's authorization code"),
  error: z.string().optional().describe("Set by the provider when the sign-in was cancelled or failed"),
  iss: z.string().optional().describe("The provider's issuer (RFC 9207), checked by the OpenID client"),
});

/** Why a browser's single sign-on was refused: the sign-in page says it in the user's language (`/app/?sso=<reason>`). */
export const SSO_REFUSALS = ["unknown_user", "email_unverified", "cancelled", "failed", "unavailable"] as const;
export type SsoRefusal = (typeof SSO_REFUSALS)[number];
