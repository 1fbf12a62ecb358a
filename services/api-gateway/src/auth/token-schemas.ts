import { z } from "zod";
import type { IssuedToken } from "./jwt";

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

export const ZGrant = z.discriminatedUnion("grant_type", [ZClientCredentials, ZApiKeys, ZRefresh]);

export interface TokenAnswer extends IssuedToken {
  refresh_token?: string;
  refresh_token_expires_at?: number;
}
