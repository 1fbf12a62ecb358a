import { z } from "zod";
import { component } from "../contract/components";
import { ZFieldIssue, unixTime } from "../contract/common-schemas";

// What `POST /oauth/token` takes and answers: its contract (auth-contracts.ts) and its handler
// (token-route.ts) both read them from here.

const ZClient = { client_id: z.string().min(1).max(255), client_secret: z.string().min(1).max(1024) };

const ZClientCredentials = z.object({ grant_type: z.literal("client_credentials"), ...ZClient });

export const ZApiKeys = z.object({
  grant_type: z.literal("api_keys"),
  ...ZClient,
  key: z.string().min(1).max(255),
  created_at: z.union([z.string().min(1).max(100), z.number()]).transform(String),
  nonce: z.string().min(1).max(512),
  digest: z.string().min(1).max(100),
});

const ZRefresh = z.object({
  grant_type: z.literal("refresh_token"),
  ...ZClient,
  refresh_token: z.string().min(1).max(512),
  // sdk-php sends its redirect_uri with every refresh; it names no registered callback here.
  redirect_uri: z.string().optional(),
});

export const GRANT_TYPES = ["client_credentials", "api_keys", "refresh_token"] as const;

export const ZGrant = component("TokenRequest", z.discriminatedUnion("grant_type", [ZClientCredentials, ZApiKeys, ZRefresh]));

export const ZTokenAnswer = component(
  "TokenAnswer",
  z.object({
    access_token: z.string().describe("A JWT"),
    token_type: z.literal("Bearer"),
    expires_in: z.int().describe("Seconds"),
    access_token_expires_at: unixTime(),
    refresh_token: z.string().optional().describe("api_keys and refresh_token grants: good once (each use returns a new one)"),
    refresh_token_expires_at: unixTime().optional(),
  }),
);
export type TokenAnswer = z.input<typeof ZTokenAnswer>;

export const ZOAuthErrorBody = component(
  "OAuthErrorBody",
  z
    .object({
      error: z.enum(["invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type"]).describe("RFC 6749 section 5.2"),
      error_description: z.string(),
      errors: z.array(ZFieldIssue).optional().describe("invalid_request: every failing field"),
    })
    .describe("The body of every 4xx of POST /oauth/token (OAuth 2.0 shape)"),
);
