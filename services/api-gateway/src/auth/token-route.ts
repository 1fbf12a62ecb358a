import { timingSafeEqual } from "node:crypto";
import { Router, type Request, type RequestHandler, type Response } from "express";
import type { z } from "zod";
import { authenticateClient, issueRefreshToken, redeemRefreshToken, resolveApiKeyClient, type AuthenticatedClient } from "@esign/accounts";
import type { GatewayContext } from "../context";
import { abuseLimits, addressOf } from "../http/abuse-limits";
import { serve } from "../contract/serve";
import { attemptGuard } from "./attempt-guard";
import { credentialCheckOf } from "./credential-check";
import { issueToken } from "./jwt";
import { MAX_NONCE_CHARS, MIN_NONCE_BYTES, claimNonce, decodeNonce, parseCreated, passwordDigest, withinSkew } from "./nonce";
import { OAuthError } from "./oauth-error";
import { authRoutes } from "./auth-contracts";
import type { TokenAnswer, ZApiKeys, ZGrant } from "./token-schemas";

/** HTTP Basic carries client_id:client_secret as an alternative to the body (RFC 6749 2.3.1). */
function basicCredentials(req: Request): { client_id?: string; client_secret?: string } {
  const m = /^Basic\s+(.+)$/i.exec(req.header("authorization") ?? "");
  if (!m?.[1]) return {};
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const i = decoded.indexOf(":");
  if (i < 0) return {};
  try {
    return { client_id: decodeURIComponent(decoded.slice(0, i)), client_secret: decodeURIComponent(decoded.slice(i + 1)) };
  } catch {
    // Broken percent-encoding (URIError) is a client's malformed credential, not a server fault.
    throw new OAuthError("invalid_client", "Malformed HTTP Basic credentials");
  }
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * `POST /oauth/token`, Penneo's grants: `api_keys` (its Postman collection and sdk-php),
 * `refresh_token` (sdk-php's RefreshTokenMiddleware; each use rotates the token) and our
 * `client_credentials`. Errors answer in the OAuth 2.0 shape: app.ts mounts oauthErrorHandler on
 * this path, after the body parsers, so that a body that is not JSON answers that way too.
 */
export function tokenRouter(ctx: GatewayContext): Router {
  const router = Router();

  async function apiKeysGrant(grant: z.infer<typeof ZApiKeys>): Promise<AuthenticatedClient> {
    const client = await resolveApiKeyClient(ctx.db, grant.client_id, grant.key, ctx.config.ENCRYPTION_KEYRING);
    if (!client || !(await authenticateClient(ctx.db, grant.client_id, grant.client_secret))) {
      throw new OAuthError("invalid_client", "Invalid client credentials");
    }
    const createdAt = parseCreated(grant.created_at);
    if (createdAt === null || !withinSkew(createdAt)) throw new OAuthError("invalid_grant", "created_at is missing or more than 5 minutes off");
    const raw = decodeNonce(grant.nonce);
    if (!raw) throw new OAuthError("invalid_grant", `nonce must be base64 of at least ${MIN_NONCE_BYTES} random bytes, at most ${MAX_NONCE_CHARS} characters`);
    const given = Buffer.from(grant.digest, "base64");
    const expected = passwordDigest(raw, grant.created_at, client.apiSecret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new OAuthError("invalid_grant", "Invalid digest");
    if (!(await claimNonce(ctx.redis, ctx.config.QUEUE_PREFIX, client.apiKey, raw))) {
      throw new OAuthError("invalid_grant", "Nonce already used");
    }
    return client;
  }

  const limits = abuseLimits(ctx);
  const guard = attemptGuard(ctx);
  const clientOf = (req: Request): string | undefined => {
    const claimed = (req.body as { client_id?: unknown }).client_id;
    return typeof claimed === "string" && claimed.length <= 255 ? claimed : undefined;
  };

  // Credentials from HTTP Basic join the body's before the contract validates it (RFC 6749 2.3.1).
  const withBasicCredentials: RequestHandler = (req, _res, next) => {
    req.body = { ...basicCredentials(req), ...(typeof req.body === "object" && req.body ? req.body : {}) };
    next();
  };
  // Before any work, even before the body is validated: the address's rate of all token requests.
  const bounded: RequestHandler = async (req, res, next) => {
    await limits.tokenRequestsByAddress.consume(res, addressOf(req), "Too many token requests from this address; slow down");
    next();
  };

  serve(router, authRoutes().issueToken, withBasicCredentials, bounded, async ({ body: grant }, req, res) => {
    // Wrong credentials count against the address, the client and address, and (from addresses the
    // client does not use) the client: reserved before the secret is evaluated (attempt-guard.ts).
    const clientKey = clientOf(req);
    const attempt = await guard.begin(addressOf(req), clientKey === undefined ? undefined : `client:${clientKey}`);
    try {
      await grantToken(grant, res);
    } catch (err) {
      await (err instanceof OAuthError && (err.code === "invalid_client" || err.code === "invalid_grant") ? attempt.failed() : attempt.abandoned());
      throw err;
    }
    await attempt.succeeded();
    credentialCheckOf(ctx).touch(grant.client_id);
  });

  async function grantToken(grant: z.output<typeof ZGrant>, res: Response): Promise<void> {
    let answer: TokenAnswer;
    if (grant.grant_type === "client_credentials") {
      // RFC 6749 4.4.3: no refresh token for client credentials; the client simply asks again.
      const client = await authenticateClient(ctx.db, grant.client_id, grant.client_secret);
      if (!client) throw new OAuthError("invalid_client", "Invalid client credentials");
      answer = issueToken(ctx.config, client);
    } else {
      let client: AuthenticatedClient;
      let familyId: string | undefined;
      if (grant.grant_type === "api_keys") client = await apiKeysGrant(grant);
      else {
        if (!(await authenticateClient(ctx.db, grant.client_id, grant.client_secret))) throw new OAuthError("invalid_client", "Invalid client credentials");
        const outcome = await redeemRefreshToken(ctx.db, grant.client_id, grant.refresh_token);
        if (!outcome.ok) throw new OAuthError("invalid_grant", "The refresh token is invalid, expired, revoked or already used");
        client = outcome.client;
        familyId = outcome.familyId;
      }
      const refresh = await issueRefreshToken(ctx.db, client.clientId, ctx.config.REFRESH_TOKEN_TTL_SECONDS, familyId);
      answer = { ...issueToken(ctx.config, client), refresh_token: refresh.token, refresh_token_expires_at: unix(refresh.expiresAt) };
    }
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Pragma", "no-cache");
    res.json(answer);
  }
  return router;
}
