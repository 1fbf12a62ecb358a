import { timingSafeEqual } from "node:crypto";
import { resolveApiKey } from "@esign/accounts";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import type { Principal } from "./jwt";
import { MAX_NONCE_CHARS, MIN_NONCE_BYTES, WSSE_SKEW_SECONDS, claimNonce, decodeNonce, parseCreated, passwordDigest, withinSkew } from "./nonce";

export interface WsseToken {
  username: string;
  passwordDigest: string;
  nonce: string;
  created: string;
}

const FIELD = /([A-Za-z]+)\s*=\s*"([^"]*)"/g;

/**
 * `X-WSSE: UsernameToken Username="key", PasswordDigest="...", Nonce="...", Created="..."` as
 * Penneo's SDKs send it (sdk-net's WSSEAuthenticator, sdk-php's WsseMiddleware, api-utils' JS).
 * Fields in any order; null when one is missing.
 */
export function parseWsseHeader(header: string): WsseToken | null {
  const m = /^\s*UsernameToken\s+(.*)$/i.exec(header);
  if (!m?.[1]) return null;
  const fields = new Map<string, string>();
  for (const f of m[1].matchAll(FIELD)) fields.set(f[1]!.toLowerCase(), f[2]!);
  const username = fields.get("username");
  const digest = fields.get("passworddigest");
  const nonce = fields.get("nonce");
  const created = fields.get("created");
  if (!username || !digest || !nonce || !created) return null;
  return { username, passwordDigest: digest, nonce, created };
}

const refuse = (why: string) => new AppError("unauthorized", `Invalid WSSE credentials: ${why}`);

/**
 * Checks a WSSE UsernameToken against the API key's secret: digest, `Created` within 60 seconds of
 * our clock either way (Penneo's "Using WSSE"), and a nonce not seen before for this key, neither in
 * a header nor in an api_keys grant (replays are refused).
 */
export async function verifyWsse(ctx: GatewayContext, header: string): Promise<Principal> {
  const token = parseWsseHeader(header);
  if (!token) throw refuse("the X-WSSE header must be UsernameToken with Username, PasswordDigest, Nonce and Created");
  const createdMs = parseCreated(token.created);
  if (createdMs === null || !withinSkew(createdMs, WSSE_SKEW_SECONDS)) throw refuse(`Created is missing or more than ${WSSE_SKEW_SECONDS} seconds off`);
  const raw = decodeNonce(token.nonce);
  if (!raw) throw refuse(`the Nonce must be base64 of at least ${MIN_NONCE_BYTES} bytes, at most ${MAX_NONCE_CHARS} characters`);
  const client = await resolveApiKey(ctx.db, token.username, ctx.config.ENCRYPTION_KEYRING);
  if (!client) throw refuse("unknown API key");
  const expected = passwordDigest(raw, token.created, client.apiSecret);
  const given = Buffer.from(token.passwordDigest, "base64");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse("the PasswordDigest does not match");
  if (!(await claimNonce(ctx.redis, ctx.config.QUEUE_PREFIX, client.apiKey, raw))) throw refuse("the Nonce was already used");
  return Object.freeze({ userId: client.userId, customerId: client.customerId, clientId: client.clientId });
}
