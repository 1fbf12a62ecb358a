import type { NextFunction, Request, Response } from "express";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { verifyToken, type Principal } from "../auth/jwt";
import { SESSION_COOKIE, readCookie, verifySession } from "./admin-session";
import { sendLoginPage } from "./login-page";

export type AdminCheck = { ok: true; principal: Principal } | { ok: false; status: 401 | 403; message: string };

/** The credential of a dashboard request: an API token (X-Auth-Token or Bearer), else the session cookie. */
function credentialOf(req: Request): { kind: "token" | "session"; value: string } | undefined {
  const xAuth = req.header("x-auth-token")?.trim();
  if (xAuth) return { kind: "token", value: xAuth };
  const bearer = /^Bearer\s+(.+)$/i.exec(req.header("authorization") ?? "")?.[1]?.trim();
  if (bearer) return { kind: "token", value: bearer };
  const session = readCookie(req.header("cookie"), SESSION_COOKIE);
  return session ? { kind: "session", value: session } : undefined;
}

/**
 * Is the principal a platform operator? The dashboard shows (and acts on) every customer's queues,
 * so a customer's own admin is not enough, in any mode: the role is granted with the admin CLI
 * (`pnpm cli operators grant`). Looked up on every request, so revoking it (or deleting the user)
 * takes effect at once.
 */
export async function checkOperator(ctx: GatewayContext, principal: Principal | null): Promise<AdminCheck> {
  if (!principal) return { ok: false, status: 401, message: "Invalid or expired access token" };
  const user = await ctx.db.user.findUnique({ where: { id: principal.userId }, select: { isOperator: true, customerId: true } });
  if (!user || user.customerId !== principal.customerId) return { ok: false, status: 401, message: "Invalid or expired access token" };
  if (!user.isOperator) return { ok: false, status: 403, message: "The queue dashboard is for platform operators only" };
  return { ok: true, principal };
}

export function verifyApiToken(ctx: GatewayContext, token: string): Principal | null {
  return verifyToken(ctx.config, token);
}

// A browser asking for a page gets the login form; API clients and scripts get the JSON error body.
const wantsHtml = (req: Request) => req.accepts(["json", "html"]) === "html";

function sameOrigin(req: Request): boolean {
  const origin = req.header("origin");
  if (!origin) return true;
  try {
    return new URL(origin).host === req.header("host");
  } catch {
    return false;
  }
}

/** Lets platform operators through to the dashboard; 401 without a valid credential, 403 for anyone else. */
export function requireOperator(ctx: GatewayContext, loginPath: string) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "same-origin");
    const credential = credentialOf(req);
    if (!credential) {
      if (wantsHtml(req)) return sendLoginPage(res, 401, loginPath);
      return next(new AppError("unauthorized", "Missing access token"));
    }
    // SameSite=Strict already keeps the cookie off cross-site requests; refusing a foreign Origin
    // on a cookie-authenticated change is the second lock on the dashboard's retry/clean buttons.
    if (credential.kind === "session" && !["GET", "HEAD"].includes(req.method) && !sameOrigin(req)) {
      return next(new AppError("forbidden", "Cross-origin request refused"));
    }
    const principal = credential.kind === "token" ? verifyApiToken(ctx, credential.value) : verifySession(ctx.config, credential.value);
    const check = await checkOperator(ctx, principal);
    if (check.ok) {
      res.locals.principal = check.principal;
      return next();
    }
    if (wantsHtml(req)) return sendLoginPage(res, check.status, loginPath, check.message);
    next(new AppError(check.status === 401 ? "unauthorized" : "forbidden", check.message));
  };
}
