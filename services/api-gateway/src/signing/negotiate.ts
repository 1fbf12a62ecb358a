import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { AppError, type ErrorParams } from "@esign/errors";
import type { Logger } from "@esign/logger";
import { unavailableError } from "../http/unavailable";
import { requestIdOf } from "../http/request-context";
import { isLanguage, type TLanguage } from "@esign/i18n";
import { sendMessagePage } from "../html/html-page";
import { formatWhen, signingMessages, visitorLanguage } from "./messages/catalog";
import type { SigningMessages } from "./messages/signing-messages";

/**
 * GETs answer JSON when the client asks for it (Accept: application/json) and a page otherwise.
 * POSTs answer JSON, except a plain form post from the server-rendered page, which gets a page.
 */
export function wantsHtml(req: Request): boolean {
  const preferred = req.accepts(["html", "json"]);
  if (req.method === "GET" || req.method === "HEAD") return preferred === "html";
  return req.is("application/x-www-form-urlencoded") === "application/x-www-form-urlencoded" && preferred === "html";
}

const LANGUAGE_KEY = "signingLanguage";
const PAGE_KEY = "signingPageUrl";

/** Remembers the language and page of the signer this request is about, for its pages and refusals. */
export function setPageContext(res: Response, language: TLanguage, pageUrl: string): void {
  res.locals[LANGUAGE_KEY] = language;
  res.locals[PAGE_KEY] = pageUrl;
}

/** Whether the request's signing link was resolved (its signer's language and page are known). */
export const hasPageContext = (res: Response): boolean => typeof res.locals[PAGE_KEY] === "string";

/** The signer's language once the link is known; before that (an unknown link) the browser's, else English. */
export function pageLanguage(req: Request, res: Response): TLanguage {
  const known: unknown = res.locals[LANGUAGE_KEY];
  return typeof known === "string" && isLanguage(known) ? known : visitorLanguage(req.header("accept-language"));
}

/** The page text of each refusal code (the JSON keeps the API's English `message`). */
/** A refusal's page text: the catalog's words, a date it names formatted in the page's language. */
type RefusalText = (m: SigningMessages, params: ErrorParams, formatDate: (d: Date) => string) => string;

const dateParam = (params: ErrorParams, name: string): Date | undefined => {
  const v = params[name];
  return v instanceof Date ? v : undefined;
};

export const REFUSAL_TEXTS: Readonly<Record<string, RefusalText>> = {
  not_found: (m) => m.errors.notFound,
  signer_deleted: (m) => m.errors.signerDeleted,
  casefile_deleted: (m) => m.errors.caseFileDeleted,
  already_signed: (m, p, date) => {
    const at = dateParam(p, "at");
    return at ? m.errors.alreadySignedOn(date(at)) : m.errors.alreadySigned;
  },
  rejected: (m) => m.errors.rejected,
  casefile_rejected: (m) => m.errors.caseFileRejected,
  casefile_failed: (m) => m.errors.caseFileFailed,
  casefile_completed: (m) => m.errors.caseFileCompleted,
  expired: (m) => m.errors.expired,
  not_yet_sent: (m) => m.errors.notYetSent,
  not_active: (m, p, date) => {
    const opens = dateParam(p, "opens");
    if (opens) return m.errors.notYourTurnUntil(date(opens));
    return p.waiting !== undefined ? m.errors.notYourTurn : m.errors.notActionable;
  },
  identity_required: (m) => m.errors.identityRequired,
  identity_unavailable: (m) => m.errors.identityUnavailable,
  identity_mismatch: (m) => m.errors.identityMismatch,
  login_cancelled: (m) => m.errors.loginCancelled,
  login_failed: (m) => m.errors.loginFailed,
  invalid_login_state: (m) => m.errors.loginExpired,
  login_session_missing: (m) => m.errors.loginOtherBrowser,
  identity_provider_unavailable: (m) => m.errors.providerUnavailable,
  method_not_allowed: (m) => m.errors.methodNotAllowed,
  no_document_to_sign: (m) => m.errors.noDocumentToSign,
  validation_failed: (m) => m.errors.invalidInput,
  too_many_requests: (m) => m.errors.tooManyRequests,
};

function titleFor(m: SigningMessages, status: number): string {
  const t = m.titles;
  const byStatus: Record<number, string> = {
    400: t.badRequest,
    403: t.forbidden,
    404: t.notFound,
    409: t.conflict,
    410: t.gone,
    429: t.tooManyRequests,
    503: t.unavailable,
  };
  return byStatus[status] ?? t.failed;
}

function textFor(m: SigningMessages, language: TLanguage, err: AppError): string {
  const known = REFUSAL_TEXTS[err.code];
  if (known) return known(m, err.params ?? {}, (d) => formatWhen(language, d));
  if (err.statusCode === 429) return m.errors.tooManyRequests;
  if (err.statusCode === 503) return m.errors.unavailable;
  return m.errors.unexpected;
}

/**
 * Refusals of the signing routes, as JSON or as a page in the signer's language; PostgreSQL or Redis
 * being away too (503 with Retry-After: a signer's browser gets a page, not JSON). Anything else goes
 * on to the next handler.
 */
export function signingErrorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    const known = err instanceof AppError ? (err.statusCode !== 500 ? err : undefined) : unavailableError(err, logger);
    if (!known || res.headersSent) return next(err);
    // Retry-After and RateLimit-* of a 429 or 503 go with the page as with the JSON.
    for (const [k, v] of Object.entries(known.headers ?? {})) res.setHeader(k, v);
    res.setHeader("Cache-Control", "no-store");
    if (wantsHtml(req)) {
      const language = pageLanguage(req, res);
      const m = signingMessages(language);
      // A refused login, signature or rejection leads back to the signing page (the page itself does not link to itself).
      const page: unknown = res.locals[PAGE_KEY];
      const back = typeof page === "string" && new URL(page).pathname !== req.path ? { href: page, label: m.page.backToSigningPage } : undefined;
      return sendMessagePage(res, known.statusCode, language, titleFor(m, known.statusCode), textFor(m, language, known), back);
    }
    res.status(known.statusCode).json(known.toBody());
  };
}

/**
 * What is left after the refusals: our own failure. A browser gets a page in the signer's language
 * with the errorId that is in the log (as the JSON answer of the global handler has); API clients
 * get that JSON.
 */
export function signingFailurePage(logger: Logger) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent || !wantsHtml(req)) return next(err);
    const errorId = randomUUID();
    logger.error("unhandled error", { errorId, requestId: requestIdOf(res), err });
    const language = pageLanguage(req, res);
    const m = signingMessages(language);
    sendMessagePage(res, 500, language, m.titles.failed, `${m.errors.unexpected} (${errorId})`);
  };
}
