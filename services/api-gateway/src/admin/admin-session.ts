import jwt from "jsonwebtoken";
import { z } from "zod";
import type { AppConfig } from "@esign/config";
import type { Principal } from "../auth/jwt";

export const SESSION_COOKIE = "esign_admin_session";
// Long enough for a working session at the dashboard, short enough that a forgotten browser expires.
const SESSION_MAX_SECONDS = 8 * 3600;
const ALGORITHM = "HS256" as const;

type SessionConfig = Pick<AppConfig, "JWT_SECRET" | "JWT_ISSUER" | "JWT_AUDIENCE" | "PUBLIC_BASE_URL">;

/*
 * The session cookie is a token of its own, not the API token the admin pasted: its audience is the
 * dashboard's, so a stolen cookie cannot call the API (verifyToken pins the API audience).
 */
const sessionAudience = (config: SessionConfig) => `${config.JWT_AUDIENCE}:queue-dashboard`;

const ZSessionClaims = z.object({ sub: z.string().regex(/^\d+$/), cid: z.number().int().positive(), azp: z.string(), exp: z.number() });

export interface IssuedSession {
  value: string;
  maxAgeSeconds: number;
}

/** A session for `principal`, ending with the API token it came from (and at most 8 h from now). */
export function issueSession(config: SessionConfig, principal: Principal, apiTokenExp: number | undefined): IssuedSession {
  const now = Math.floor(Date.now() / 1000);
  const exp = Math.min(apiTokenExp ?? now + SESSION_MAX_SECONDS, now + SESSION_MAX_SECONDS);
  const value = jwt.sign({ cid: principal.customerId, azp: principal.clientId, iat: now, exp }, config.JWT_SECRET, {
    algorithm: ALGORITHM,
    issuer: config.JWT_ISSUER,
    audience: sessionAudience(config),
    subject: String(principal.userId),
  });
  return { value, maxAgeSeconds: Math.max(0, exp - now) };
}

export function verifySession(config: SessionConfig, value: string): Principal | null {
  try {
    const decoded = jwt.verify(value, config.JWT_SECRET, { algorithms: [ALGORITHM], issuer: config.JWT_ISSUER, audience: sessionAudience(config) });
    const claims = ZSessionClaims.safeParse(decoded);
    if (!claims.success) return null;
    return { userId: Number(claims.data.sub), customerId: claims.data.cid, clientId: claims.data.azp };
  } catch {
    return null;
  }
}

/** `exp` of an already verified token. */
export function expiryOf(token: string): number | undefined {
  const decoded = jwt.decode(token);
  return decoded && typeof decoded === "object" && typeof decoded.exp === "number" ? decoded.exp : undefined;
}

function cookieAttributes(config: SessionConfig, path: string, maxAgeSeconds: number): string {
  // Strict: the cookie never rides along on a request started by another site (CSRF on the dashboard's actions).
  const secure = config.PUBLIC_BASE_URL.startsWith("https:") ? "; Secure" : "";
  return `Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

export function sessionCookie(config: SessionConfig, path: string, session: IssuedSession): string {
  return `${SESSION_COOKIE}=${session.value}; ${cookieAttributes(config, path, session.maxAgeSeconds)}`;
}

export function clearedSessionCookie(config: SessionConfig, path: string): string {
  return `${SESSION_COOKIE}=; ${cookieAttributes(config, path, 0)}`;
}

/** One cookie's value from a Cookie header (cookie-parser is not worth a dependency for one name). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim() || undefined;
  }
  return undefined;
}
