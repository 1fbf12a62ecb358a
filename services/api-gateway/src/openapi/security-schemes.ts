import type { AppConfig } from "@esign/config";
import { SESSION_COOKIE } from "../admin/admin-session";
import type { JsonSchema } from "./json-schema";
import type { SecuritySchemeName } from "../contract/route";
import { SESSION_COOKIE as APP_SESSION_COOKIE } from "../auth/session-cookie";

/** The ways a request authenticates (contract "Authentication"). */
export function securitySchemes(config: AppConfig): Record<SecuritySchemeName, JsonSchema> {
  return {
    XAuthToken: {
      type: "apiKey",
      in: "header",
      name: "X-Auth-Token",
      description: "The access_token of POST /oauth/token, alone or with `Authorization: JWT` beside it (the webhook API's documented form).",
    },
    BearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "`Authorization: Bearer <access_token>`, on every authenticated route." },
    OAuth2ClientCredentials: {
      type: "oauth2",
      description: "The client-credentials grant of POST /oauth/token; the token is then sent as a bearer token.",
      flows: { clientCredentials: { tokenUrl: `${config.PUBLIC_BASE_URL}/oauth/token`, scopes: {} } },
    },
    ClientBasicAuth: { type: "http", scheme: "basic", description: "POST /oauth/token only: client_id:client_secret (RFC 6749 2.3.1)." },
    Wsse: {
      type: "apiKey",
      in: "header",
      name: "X-WSSE",
      description:
        'WSSE UsernameToken, as Penneo\'s SDKs send it: `UsernameToken Username="<apiKey>", PasswordDigest="<base64(sha1(rawNonce + Created + apiSecret))>", ' +
        'Nonce="<base64 of at least 16 bytes>", Created="<time>"`. Created at most 5 minutes off; a nonce is good once.',
    },
    MetricsToken: { type: "http", scheme: "bearer", description: "GET /metrics when METRICS_TOKEN is set: `Authorization: Bearer <METRICS_TOKEN>`." },
    QueueDashboardSession: {
      type: "apiKey",
      in: "cookie",
      name: SESSION_COOKIE,
      description: "The queue dashboard's session, set by POST /admin/queues/login for a platform operator's access token.",
    },
    SessionCookie: {
      type: "apiKey",
      in: "cookie",
      name: APP_SESSION_COOKIE,
      description:
        "The web application's session, set by POST /api/v3/session (or accepting an invitation). Every unsafe method (not GET, HEAD, OPTIONS) " +
        "made with it must send the session's csrfToken in `X-CSRF-Token`, else 403.",
    },
  };
}
