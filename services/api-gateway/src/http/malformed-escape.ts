import type { NextFunction, Request, Response } from "express";
import { AppError } from "@esign/errors";

/**
 * Express decodes route parameters with decodeURIComponent, which throws a URIError on a malformed
 * escape (`/sign/%E0`, `/api/v3/casefiles/%ff`). Its message quotes the raw parameter, a signing token
 * included, so neither the message nor the value goes anywhere: a 400 naming the path (issue 26, item 5).
 */
export function malformedEscapeError(): AppError {
  return new AppError("bad_request", "The request path holds a malformed percent-escape", [
    { path: "path", code: "invalid_percent_encoding", message: "a percent-escape in the path is not valid UTF-8" },
  ]);
}

/** Error middleware for routers with refusal handlers of their own (the signing pages): the URIError as that 400. */
export function malformedEscapes(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  next(err instanceof URIError ? malformedEscapeError() : err);
}
