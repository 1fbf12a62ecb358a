import type { NextFunction, Request, Response } from "express";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { verifyToken, type Principal } from "./jwt";
import { verifyWsse } from "./wsse";
import { abuseLimits, addressOf } from "../http/abuse-limits";
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
  const limits = abuseLimits(ctx);
  return authenticator(async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const wsse = req.header("x-wsse");
    if (wsse !== undefined) {
      // A WSSE digest is a password guess like a token request's: failures are bounded the same way.
      const address = addressOf(req);
      await limits.tokenFailuresByAddress.assertUnder(address, "Too many failed authentications from this address; try again later");
      try {
        res.locals.principal = await verifyWsse(ctx, wsse);
      } catch (err) {
        if (err instanceof AppError && err.code === "unauthorized") await limits.tokenFailuresByAddress.recordFailure(address);
        throw err;
      }
      return next();
    }
    const token = bearerToken(req);
    if (!token) return next(new AppError("unauthorized", "Missing credentials: send Authorization: Bearer <token>, X-Auth-Token or X-WSSE"));
    const principal = verifyToken(ctx.config, token);
    if (!principal) return next(new AppError("unauthorized", "Invalid or expired access token"));
    res.locals.principal = principal;
    next();
  });
}

export function principalOf(res: Response): Principal {
  const p = res.locals.principal as Principal | undefined;
  if (!p) throw new AppError("unauthorized", "Not authenticated");
  return p;
}
