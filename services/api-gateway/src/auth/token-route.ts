import { createHash, timingSafeEqual } from "node:crypto";
import { Router, type Request } from "express";
import { z } from "zod";
import { authenticateClient, resolveApiKeyClient, type AuthenticatedClient } from "@esign/accounts";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { issueToken } from "./jwt";
import { zodIssues } from "../http/zod-issues";

const ZClientCredentials = z.object({
  grant_type: z.literal("client_credentials"),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
});

const ZApiKeys = z.object({
  grant_type: z.literal("api_keys"),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  key: z.string().min(1),
  created_at: z.union([z.string().min(1), z.number()]).transform(String),
  nonce: z.string().min(1),
  digest: z.string().min(1),
});

export const ZGrant = z.discriminatedUnion("grant_type", [ZClientCredentials, ZApiKeys]);

const CLOCK_SKEW_SECONDS = 300;

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
    throw new AppError("unauthorized", "Malformed HTTP Basic credentials");
  }
}

function parseCreatedAt(value: string): number | null {
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

export function tokenRouter(ctx: GatewayContext): Router {
  const router = Router();
  router.post("/oauth/token", async (req, res) => {
    const body: unknown = { ...basicCredentials(req), ...(typeof req.body === "object" && req.body ? req.body : {}) };
    const parsed = ZGrant.safeParse(body);
    if (!parsed.success) {
      const grant = (body as { grant_type?: unknown }).grant_type;
      if (grant !== undefined && grant !== "client_credentials" && grant !== "api_keys") {
        throw new AppError("bad_request", `Unsupported grant_type; use "client_credentials" or "api_keys"`);
      }
      throw new AppError("validation_failed", "Invalid token request", zodIssues(parsed.error));
    }
    const grant = parsed.data;
    let client: AuthenticatedClient | null;
    if (grant.grant_type === "client_credentials") {
      client = await authenticateClient(ctx.db, grant.client_id, grant.client_secret);
    } else {
      const withSecret = await resolveApiKeyClient(ctx.db, grant.client_id, grant.key, ctx.config.ENCRYPTION_KEY);
      const secretOk = withSecret && (await authenticateClient(ctx.db, grant.client_id, grant.client_secret));
      if (!withSecret || !secretOk) throw new AppError("unauthorized", "Invalid client credentials");
      const createdAt = parseCreatedAt(grant.created_at);
      if (createdAt === null || Math.abs(Date.now() - createdAt) > CLOCK_SKEW_SECONDS * 1000) {
        throw new AppError("unauthorized", "created_at is missing or more than 5 minutes off");
      }
      const rawNonce = Buffer.from(grant.nonce, "base64");
      const expected = createHash("sha1")
        .update(Buffer.concat([rawNonce, Buffer.from(grant.created_at), Buffer.from(withSecret.apiSecret)]))
        .digest();
      const given = Buffer.from(grant.digest, "base64");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new AppError("unauthorized", "Invalid digest");
      }
      // A nonce is good once within the skew window (plus margin); Redis makes that hold across replicas.
      const fresh = await ctx.redis.set(
        `${ctx.config.QUEUE_PREFIX}:oauth-nonce:${grant.client_id}:${grant.nonce}`,
        "1",
        "EX",
        CLOCK_SKEW_SECONDS * 2 + 60,
        "NX",
      );
      if (fresh !== "OK") throw new AppError("unauthorized", "Nonce already used");
      client = withSecret;
    }
    if (!client) throw new AppError("unauthorized", "Invalid client credentials");
    res.setHeader("Cache-Control", "no-store");
    res.json(issueToken(ctx.config, client));
  });
  return router;
}
