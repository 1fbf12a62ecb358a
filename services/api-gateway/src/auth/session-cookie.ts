import type { Request, Response } from "express";
import type { AppConfig } from "@esign/config";

/** The web application's session cookie (the queue dashboard's is another: admin/admin-session.ts). */
export const SESSION_COOKIE = "esign_session";

/** The header that must carry the session's CSRF token on every unsafe request made with the cookie. */
export const CSRF_HEADER = "x-csrf-token";

/** The cookie's value, if the request carries one (the first, when a browser sends several). */
export function sessionCookieOf(req: Request): string | undefined {
  const header = req.header("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

// HttpOnly: no script reads it. SameSite=Strict: no request started by another site carries it (the
// first line against CSRF; X-CSRF-Token is the second). Secure whenever the public address is https.
function attributes(config: Pick<AppConfig, "PUBLIC_BASE_URL">, maxAgeSeconds: number): string {
  const secure = config.PUBLIC_BASE_URL.startsWith("https:") ? "; Secure" : "";
  return `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

export function setSessionCookie(res: Response, config: Pick<AppConfig, "PUBLIC_BASE_URL">, token: string, maxAgeSeconds: number): void {
  res.append("Set-Cookie", `${SESSION_COOKIE}=${token}; ${attributes(config, maxAgeSeconds)}`);
}

export function clearSessionCookie(res: Response, config: Pick<AppConfig, "PUBLIC_BASE_URL">): void {
  res.append("Set-Cookie", `${SESSION_COOKIE}=; ${attributes(config, 0)}`);
}
