import type { NextFunction, Request, Response } from "express";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { verifyToken, type Principal } from "./jwt";
import { attemptGuard } from "./attempt-guard";
import { credentialCheckOf } from "./credential-check";
import { parseWsseHeader, verifyWsse } from "./wsse";
import { addressOf } from "../http/abuse-limits";
import { authenticator } from "../contract/serve";

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

/**
 * Rejects with 401 unless the request carries valid credentials; the principal goes to
 * res.locals. Every authenticated route takes every scheme the published clients use: the JWT
 * in any of its headers, or WSSE (`X-WSSE`, the only scheme of sdk-net; sdk-php also sends
 * `Authorization: WSSE profile="UsernameToken"` with it, which is only a label).
 */
export function authenticate(ctx: GatewayContext) {
  const guard = attemptGuard(ctx);
  const credentials = credentialCheckOf(ctx);
  return authenticator(async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const wsse = req.header("x-wsse");
    if (wsse !== undefined) {
      // A WSSE digest is a password guess like a token request's: bounded the same way, reserved before the work.
      const named = parseWsseHeader(wsse)?.username;
      const apiKey = named !== undefined && named.length <= 255 ? named : undefined;
      const attempt = await guard.begin(addressOf(req), apiKey === undefined ? undefined : `apikey:${apiKey}`);
      try {
        res.locals.principal = await verifyWsse(ctx, wsse);
      } catch (err) {
        await (err instanceof AppError && err.code === "unauthorized" ? attempt.failed() : attempt.abandoned());
        throw err;
      }
      await attempt.succeeded();
      credentials.touch((res.locals.principal as Principal).clientId);
      return next();
    }
    const token = bearerToken(req);
    if (!token) return next(new AppError("unauthorized", "Missing credentials: send Authorization: Bearer <token>, X-Auth-Token or X-WSSE"));
    const principal = verifyToken(ctx.config, token);
    if (!principal) return next(new AppError("unauthorized", "Invalid or expired access token"));
    // A valid signature is not enough: its credential may have been revoked or rotated since.
    await credentials.assertStanding(principal);
    res.locals.principal = principal;
    next();
  });
}

export function principalOf(res: Response): Principal {
  const p = res.locals.principal as Principal | undefined;
  if (!p) throw new AppError("unauthorized", "Not authenticated");
  return p;
}
