import type { NextFunction, Request, Response } from "express";
import { AppError } from "@esign/errors";
import { unstorableTextIssues } from "@esign/schema";

/**
 * After the body parsers: a JSON or form body (or query) holding text PostgreSQL cannot store - a
 * NUL character, a lone UTF-16 surrogate - is a 400 naming every such field, at every entry point
 * (subscriptions, signing actions, the token endpoint, ...), before any handler sees it. Multipart
 * creates are checked by the create payload's own validation (packages/schema) and the file names
 * by the create route.
 */
export function textGuard(req: Request, _res: Response, next: NextFunction): void {
  const issues = [...(typeof req.body === "object" && req.body !== null ? unstorableTextIssues(req.body) : []), ...unstorableTextIssues(req.query, ["query"])];
  if (issues.length > 0) return next(new AppError("validation_failed", "The request holds text that cannot be stored", issues));
  next();
}
