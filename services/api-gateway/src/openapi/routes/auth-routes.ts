import { REQUEST_COMPONENTS } from "../request-schemas";
import { ZTokenAnswer } from "../response-schemas";
import { CLIENT_AUTH, errors, json, TAGS, type RouteDoc } from "../route-doc";

export const authRoutes = (): RouteDoc[] => [
  {
    method: "post",
    path: "/oauth/token",
    operationId: "issueToken",
    summary: "Get an access token (JWT)",
    description:
      "`grant_type=client_credentials` with `client_id` + `client_secret` (in the body or as HTTP Basic), or " +
      "`grant_type=api_keys` with `key`, `created_at` (ISO or unix, at most 5 minutes off), `nonce` (base64 of random " +
      "bytes, good once) and `digest` = base64(sha1(rawNonce + created_at + apiSecret)). Send the token as " +
      "`X-Auth-Token` (case files) or `Authorization: Bearer` (webhook endpoints).",
    tags: [TAGS.auth],
    security: CLIENT_AUTH,
    request: { body: { schema: REQUEST_COMPONENTS.TokenRequest, mediaTypes: ["application/json", "application/x-www-form-urlencoded"] } },
    responses: {
      200: { description: "A token", content: json(ZTokenAnswer) },
      ...errors({ 400: "Invalid request or unsupported grant_type", 401: "Invalid client credentials, digest, nonce or created_at" }),
    },
  },
];
