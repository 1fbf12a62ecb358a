import type { NextFunction, Request, Response } from "express";
import { AppError, type FieldIssue } from "@esign/errors";
import { GRANT_TYPES } from "./token-schemas";

/** The error codes of RFC 6749 section 5.2 that the token endpoint uses. */
export type OAuthErrorCode = "invalid_request" | "invalid_client" | "invalid_grant" | "unsupported_grant_type";

/** A token-endpoint failure, answered in the OAuth 2.0 shape `{error, error_description}`. */
export class OAuthError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: OAuthErrorCode,
    message: string,
    readonly errors?: FieldIssue[],
  ) {
    super(message);
    this.name = "OAuthError";
    this.statusCode = code === "invalid_client" ? 401 : 400;
  }
}

/** A grant_type the endpoint does not know (the contract's validation refused the body because of it). */
function unsupportedGrant(body: unknown): boolean {
  const grant = typeof body === "object" && body !== null ? (body as { grant_type?: unknown }).grant_type : undefined;
  return typeof grant === "string" && !(GRANT_TYPES as readonly string[]).includes(grant);
}

/** Errors raised before the grant is looked at (a body that is not JSON, too large) in the same shape. */
function toOAuth(err: unknown, body: unknown): { status: number; body: Record<string, unknown> } | null {
  if (err instanceof OAuthError) {
    return { status: err.statusCode, body: { error: err.code, error_description: err.message, ...(err.errors?.length ? { errors: err.errors } : {}) } };
  }
  if (err instanceof AppError && err.code === "too_many_requests") {
    // RFC 6749 has no code for a rate limit; its "temporarily_unavailable" says what a client must do.
    return { status: 429, body: { error: "temporarily_unavailable", error_description: err.message } };
  }
  if (err instanceof AppError && err.code === "validation_failed" && unsupportedGrant(body)) {
    return { status: 400, body: { error: "unsupported_grant_type", error_description: `Unsupported grant_type; use one of ${GRANT_TYPES.join(", ")}` } };
  }
  if (err instanceof AppError && err.statusCode < 500) {
    const code: OAuthErrorCode = err.statusCode === 401 ? "invalid_client" : "invalid_request";
    return { status: err.statusCode, body: { error: code, error_description: err.message, ...(err.errors?.length ? { errors: err.errors } : {}) } };
  }
  const e = err as { type?: string } | null;
  if (e?.type === "entity.parse.failed") return { status: 400, body: { error: "invalid_request", error_description: "The request body is not valid JSON" } };
  if (e?.type === "entity.too.large") return { status: 413, body: { error: "invalid_request", error_description: "The request body is too large" } };
  return null;
}

/**
 * Mounted on `/oauth/token` only: every client error of the token endpoint answers as RFC 6749
 * 5.2 says (Penneo's sdk-php reads `error` and `error_description`); 5xx go on to the common handler.
 */
export function oauthErrorHandler(err: unknown, req: Request, res: Response, next: NextFunction): void {
  const answer = toOAuth(err, req.body);
  if (!answer || res.headersSent) return next(err);
  if (err instanceof AppError) for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Pragma", "no-cache");
  if (answer.status === 401) res.setHeader("WWW-Authenticate", 'Basic realm="oauth", charset="UTF-8"');
  res.status(answer.status).json(answer.body);
}
