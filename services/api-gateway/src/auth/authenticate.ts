import type { NextFunction, Request, Response } from "express";
import { runOne, sqlPool } from "@esign/db";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { verifyToken, type Principal } from "./jwt";
import { attemptGuard } from "./attempt-guard";
import { credentialCheckOf } from "./credential-check";
import { parseWsseHeader, verifyWsse } from "./wsse";
import { addressOf } from "../http/abuse-limits";
import { authenticator, contractOf } from "../contract/serve";
import { CSRF_HEADER, sessionCookieOf } from "./session-cookie";
import { resolveSession } from "./session-store";
import { adminRequired, roleOf, setViewer, type Viewer } from "./viewer";
import { caseFileGuard } from "./visibility";
import { tokenUserSql } from "./token-viewer.sql";

/**
 * The access token of a request, wherever Penneo's published clients put it: `Authorization:
 * Bearer <jwt>` (its Postman collection, sdk-php with OAuth), `X-Auth-Token: <jwt>` alone (the
 * create endpoint) or with `Authorization: JWT` (the webhook API).
 */
function bearerToken(req: Request): string | undefined {
  const authz = req.header("authorization")?.trim() ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(authz);
  if (bearer?.[1]) return bearer[1];
  return req.header("x-auth-token")?.trim() || undefined;
}

export interface AuthenticateOptions {
  /** Only the customer's administrators (configuring the company, users, webhooks, credentials): a member gets 403. */
  admin?: boolean;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

type AttemptGuard = ReturnType<typeof attemptGuard>;
type CredentialCheck = ReturnType<typeof credentialCheckOf>;

/** The principal of an API credential, or the 401 (undefined: the request carries none). */
async function tokenPrincipal(ctx: GatewayContext, req: Request, guard: AttemptGuard, credentials: CredentialCheck): Promise<Principal | undefined> {
  const wsse = req.header("x-wsse");
  if (wsse !== undefined) {
    // A WSSE digest is a password guess like a token request's: bounded the same way, reserved before the work.
    const named = parseWsseHeader(wsse)?.username;
    const apiKey = named !== undefined && named.length <= 255 ? named : undefined;
    const attempt = await guard.begin(addressOf(req), apiKey === undefined ? undefined : `apikey:${apiKey}`);
    let principal: Principal;
    try {
      principal = await verifyWsse(ctx, wsse);
    } catch (err) {
      await (err instanceof AppError && err.code === "unauthorized" ? attempt.failed() : attempt.abandoned());
      throw err;
    }
    await attempt.succeeded();
    credentials.touch(principal.clientId);
    return principal;
  }
  const token = bearerToken(req);
  if (!token) return undefined;
  const principal = verifyToken(ctx.config, token);
  if (!principal) throw new AppError("unauthorized", "Invalid or expired access token");
  // A valid signature is not enough: its credential may have been revoked or rotated since.
  await credentials.assertStanding(principal);
  return principal;
}

/**
 * The user an API credential belongs to decides its role (and a disabled user's tokens stop working
 * at once): one primary-key read per request.
 */
async function tokenViewer(ctx: GatewayContext, principal: Principal): Promise<Viewer> {
  const user = await runOne(sqlPool(ctx.db), tokenUserSql, { userId: principal.userId });
  if (!user || user.disabledAt || user.customerId !== principal.customerId) throw new AppError("unauthorized", "The credential's user is disabled or gone");
  return { userId: principal.userId, customerId: principal.customerId, role: roleOf(user.isAdmin), via: "token" };
}

/**
 * Rejects with 401 unless the request carries valid credentials; the principal and the viewer (the
 * user's role) go to res.locals. Every authenticated route takes every scheme the published clients
 * use: the JWT in any of its headers, or WSSE (`X-WSSE`, the only scheme of sdk-net; sdk-php also
 * sends `Authorization: WSSE profile="UsernameToken"` with it, which is only a label); and the web
 * application's session cookie, with `X-CSRF-Token` on every unsafe method. Then the role: members
 * are refused admin routes (403) and case files they may not see (404, visibility.ts).
 */
export function authenticate(ctx: GatewayContext, options: AuthenticateOptions = {}) {
  const guard = attemptGuard(ctx);
  const credentials = credentialCheckOf(ctx);
  return authenticator(async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    let viewer: Viewer;
    const principal = await tokenPrincipal(ctx, req, guard, credentials);
    if (principal) {
      viewer = await tokenViewer(ctx, principal);
      res.locals.principal = principal;
    } else {
      const cookie = sessionCookieOf(req);
      const session = cookie ? await resolveSession(ctx, cookie) : null;
      if (!session) return next(new AppError("unauthorized", "Missing credentials: send Authorization: Bearer <token>, X-Auth-Token or X-WSSE, or sign in"));
      // SameSite=Strict already keeps other sites' requests from carrying the cookie; the token is the
      // second line, for browsers and proxies that do not honour it.
      if (!SAFE_METHODS.has(req.method) && req.header(CSRF_HEADER) !== session.csrfToken) {
        return next(new AppError("forbidden", "Missing or wrong X-CSRF-Token: send the csrfToken of the session with every change"));
      }
      viewer = { userId: session.userId, customerId: session.customerId, role: roleOf(session.isAdmin), via: "session" };
      res.locals.principal = { userId: session.userId, customerId: session.customerId, clientId: "session" } satisfies Principal;
      res.locals.sessionCsrfToken = session.csrfToken;
    }
    setViewer(res, viewer);
    if (options.admin && viewer.role !== "admin") return next(adminRequired());
    await caseFileGuard(ctx, viewer, contractOf(res)?.path, req);
    next();
  });
}

export function principalOf(res: Response): Principal {
  const p = res.locals.principal as Principal | undefined;
  if (!p) throw new AppError("unauthorized", "Not authenticated");
  return p;
}
