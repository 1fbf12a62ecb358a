import { errors, json, PUBLIC, route, TAGS } from "../contract/route";
import { SSO_CALLBACK_PATH, SSO_PATH, SSO_START_PATH, ZSsoCallbackQuery, ZSsoConfig } from "./sso-schemas";
import { ZSession } from "./user-schemas";

const OFF = "Single sign-on is not configured";

/** Single sign-on of the web application's users through an OpenID provider (sso-router.ts serves them). */
export function ssoRoutes() {
  const base = { tags: [TAGS.users], security: PUBLIC } as const;
  return {
    ssoConfig: route({
      ...base,
      method: "get",
      path: SSO_PATH,
      operationId: "getSsoConfig",
      summary: "Whether single sign-on is offered, and its name",
      responses: { 200: { description: "The single sign-on offer", content: json(ZSsoConfig) } },
    }),
    ssoStart: route({
      ...base,
      method: "get",
      path: SSO_START_PATH,
      operationId: "startSso",
      summary: "Start single sign-on: the redirect to the OpenID provider",
      description:
        "Authorization code flow with PKCE (S256), state and nonce. The state is sealed by the gateway and bound to a cookie of this browser " +
        "(esign_sso_login, 10 minutes, on the callback's path only): nothing is kept in a replica's memory.",
      responses: { 303: { description: "To the provider's sign-in" }, ...errors({ 404: OFF, 503: "The provider cannot be reached" }) },
    }),
    ssoCallback: route({
      ...base,
      method: "get",
      path: SSO_CALLBACK_PATH,
      operationId: "ssoCallback",
      summary: "Where the OpenID provider sends the browser back",
      description:
        "Register it as the redirect URI. Verifies state (and this browser's cookie), the code (PKCE) and the ID token (signature, issuer, audience, nonce), " +
        "then needs the claims `email` and `email_verified: true`: the existing, enabled user with that email (ignoring case) is signed in with the same " +
        "session cookie as POST /api/v3/session. Single sign-on never makes users: an unknown email is refused. " +
        "Browsers go to /app/, or on a refusal to /app/?sso=<reason> (unknown_user, email_unverified, cancelled, failed, unavailable).",
      request: { query: ZSsoCallbackQuery },
      responses: {
        200: { description: "Signed in (JSON clients)", content: json(ZSession) },
        303: { description: "Browsers: to the web application" },
        ...errors({
          400: "Invalid, expired or foreign login state; no login cookie in this browser; a cancelled sign-in or an answer that does not verify (a used code); email not verified",
          403: "No enabled user has this email",
          404: OFF,
          503: "The provider cannot be reached",
        }),
      },
    }),
  };
}
