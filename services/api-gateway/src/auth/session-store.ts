import { randomBytes } from "node:crypto";
import { sha256Hex } from "@esign/db";
import type { GatewayContext } from "../context";

/*
 * Web-application sessions, one UserSession row each: the cookie carries 32 random bytes, the row
 * their sha256, so the table leaks no usable cookie. Server-side rows make sign-out, disabling a
 * user and demotion take effect at the next request. Idle expiry counts from lastSeenAt, which a
 * request moves at most once a minute (no write per request); the absolute expiry never moves.
 */

const TOUCH_AFTER_MS = 60_000;

export interface NewSession {
  token: string;
  csrfToken: string;
  maxAgeSeconds: number;
}

export interface ActiveSession {
  userId: number;
  customerId: number;
  isAdmin: boolean;
  csrfToken: string;
}

const randomToken = () => randomBytes(32).toString("base64url");

export async function startSession(ctx: GatewayContext, userId: number): Promise<NewSession> {
  const token = randomToken();
  const csrfToken = randomToken();
  const maxAgeSeconds = ctx.config.SESSION_ABSOLUTE_SECONDS;
  await ctx.db.userSession.create({ data: { id: sha256Hex(token), userId, csrfToken, expiresAt: new Date(Date.now() + maxAgeSeconds * 1000) } });
  return { token, csrfToken, maxAgeSeconds };
}

/** The live session of a cookie, or null (unknown, expired, or its user disabled; an expired row is removed). */
export async function resolveSession(ctx: GatewayContext, token: string, now = new Date()): Promise<ActiveSession | null> {
  const id = sha256Hex(token);
  const row = await ctx.db.userSession.findUnique({ where: { id }, include: { user: { select: { customerId: true, isAdmin: true, disabledAt: true } } } });
  if (!row) return null;
  const idleEnd = row.lastSeenAt.getTime() + ctx.config.SESSION_IDLE_SECONDS * 1000;
  if (row.user.disabledAt || now >= row.expiresAt || now.getTime() >= idleEnd) {
    await ctx.db.userSession.deleteMany({ where: { id } });
    return null;
  }
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_AFTER_MS) {
    await ctx.db.userSession.updateMany({ where: { id }, data: { lastSeenAt: now } });
  }
  return { userId: row.userId, customerId: row.user.customerId, isAdmin: row.user.isAdmin, csrfToken: row.csrfToken };
}

export async function endSession(ctx: GatewayContext, token: string): Promise<void> {
  await ctx.db.userSession.deleteMany({ where: { id: sha256Hex(token) } });
}
