import { CLIENT_AUTH, json, route, TAGS } from "../contract/route";
import { ZGrant, ZOAuthErrorBody, ZTokenAnswer } from "./token-schemas";

export const TOKEN_PATH = "/oauth/token";

export const authRoutes = () => ({
  issueToken: route({
    method: "post",
    path: TOKEN_PATH,
    operationId: "issueToken",
    summary: "Get an access token (JWT)",
    description:
      "Every grant takes `client_id` + `client_secret` (in the body or as HTTP Basic). `grant_type=api_keys` (Penneo's " +
      "Postman collection and sdk-php) adds `key`, `created_at` (ISO, unix or any common date text, at most 5 minutes off), " +
      "`nonce` (base64 of at least 16 random bytes, good once) and `digest` = base64(sha1(rawNonce + created_at + apiSecret)); " +
      "it answers a `refresh_token` too. `grant_type=refresh_token` with `refresh_token` spends that token and answers a new " +
      "pair. `grant_type=client_credentials` answers an access token only. Send the token as `Authorization: Bearer` or " +
      "`X-Auth-Token` on any route. Errors are in the OAuth 2.0 shape (RFC 6749 5.2).",
    tags: [TAGS.auth],
    security: CLIENT_AUTH,
    request: { body: { schema: ZGrant, mediaTypes: ["application/json", "application/x-www-form-urlencoded"] } },
    responses: {
      200: { description: "A token", content: json(ZTokenAnswer) },
      400: {
        description: "invalid_request, unsupported_grant_type, or invalid_grant (digest, nonce, created_at, refresh token)",
        content: json(ZOAuthErrorBody),
      },
      401: { description: "invalid_client: unknown client or wrong secret", content: json(ZOAuthErrorBody) },
    },
  }),
});
