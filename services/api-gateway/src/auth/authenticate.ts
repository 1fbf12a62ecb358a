import type { NextFunction, Request, Response } from "express";
import { AppError } from "@esign/errors";
import type { AppConfig } from "@esign/config";
import { verifyToken, type Principal } from "./jwt";

export type AuthStyle = "x-auth-token" | "webhook";

function extractToken(req: Request, style: AuthStyle): string | undefined {
  const xAuth = req.header("x-auth-token")?.trim();
  if (style === "x-auth-token") return xAuth || undefined;
  // Webhook endpoints: `Authorization: JWT` + `X-Auth-Token`, or a plain bearer token.
  const authz = req.header("authorization")?.trim() ?? "";
  const bearer = /^Bearer\s+(.+)$/i.exec(authz);
  if (bearer?.[1]) return bearer[1].trim();
  if (/^JWT$/i.test(authz) || authz === "") return xAuth || undefined;
  return undefined;
}

/** Rejects with 401 unless a valid token for this service is present; the principal goes to res.locals. */
export function authenticate(config: AppConfig, style: AuthStyle) {
  return (req: Request, res: Response, next: NextFunction) => {
    const token = extractToken(req, style);
    if (!token) return next(new AppError("unauthorized", "Missing access token"));
    const principal = verifyToken(config, token);
    if (!principal) return next(new AppError("unauthorized", "Invalid or expired access token"));
    res.locals.principal = principal;
    next();
  };
}

export function principalOf(res: Response): Principal {
  const p = res.locals.principal as Principal | undefined;
  if (!p) throw new AppError("unauthorized", "Not authenticated");
  return p;
}
