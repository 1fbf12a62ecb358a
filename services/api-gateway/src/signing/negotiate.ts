import type { NextFunction, Request, Response } from "express";
import { AppError } from "@esign/errors";
import type { Logger } from "@esign/logger";
import { unavailableError } from "../http/unavailable";
import { sendMessagePage } from "./html";
import { SigningError } from "./signing-error";

/**
 * GETs answer JSON when the client asks for it (Accept: application/json) and a page otherwise.
 * POSTs answer JSON, except a plain form post from the server-rendered page, which gets a page.
 */
export function wantsHtml(req: Request): boolean {
  const preferred = req.accepts(["html", "json"]);
  if (req.method === "GET" || req.method === "HEAD") return preferred === "html";
  return req.is("application/x-www-form-urlencoded") === "application/x-www-form-urlencoded" && preferred === "html";
}

const TITLES: Record<number, string> = {
  400: "The request could not be used",
  403: "Not allowed",
  404: "Signing link not found",
  409: "Not possible right now",
  410: "This signing request is closed",
  429: "Too many requests",
  503: "Temporarily unavailable",
};

/**
 * Refusals of the signing routes, as JSON or as a page; PostgreSQL or Redis being away too (503 with
 * Retry-After: a signer's browser gets a page, not JSON). Anything else goes on to the global handler.
 */
export function signingErrorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    const unavailable = err instanceof SigningError || err instanceof AppError ? undefined : unavailableError(err, logger);
    const known =
      err instanceof SigningError
        ? err
        : err instanceof AppError && err.statusCode !== 500
          ? new SigningError(err.statusCode, err.code, err.message, err.errors)
          : unavailable
            ? new SigningError(unavailable.statusCode, unavailable.code, unavailable.message)
            : undefined;
    if (!known || res.headersSent) return next(err);
    res.setHeader("Cache-Control", "no-store");
    // Retry-After and RateLimit-* of a 429 or 503 go with the page as with the JSON.
    for (const [k, v] of Object.entries((err instanceof AppError ? err.headers : unavailable?.headers) ?? {})) res.setHeader(k, v);
    if (wantsHtml(req)) return sendMessagePage(res, known.statusCode, TITLES[known.statusCode] ?? "Signing", known.message);
    res.status(known.statusCode).json(known.toBody());
  };
}
