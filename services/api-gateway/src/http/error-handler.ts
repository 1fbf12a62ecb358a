import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { MulterError } from "multer";
import { AppError } from "@esign/errors";
import type { Logger } from "@esign/logger";
import { malformedEscapeError } from "./malformed-escape";
import { requestIdOf } from "./request-context";
import { unavailableError } from "./unavailable";

/** Multer's limit codes, translated to the contract: size is 413, counts and shapes are 400. */
function fromMulter(err: MulterError): AppError {
  const field = err.field ?? "";
  switch (err.code) {
    case "LIMIT_FILE_SIZE":
      return new AppError("payload_too_large", `File in part "${field}" exceeds the maximum file size`, [
        { path: field || "files", code: "file_too_large", message: "file exceeds the maximum file size" },
      ]);
    case "LIMIT_FILE_COUNT":
      return new AppError("validation_failed", "Too many files", [{ path: "files", code: "too_many_files", message: "too many files in one request" }]);
    case "LIMIT_UNEXPECTED_FILE":
      return new AppError("validation_failed", `Unexpected file part "${field}"`, [
        field === "data"
          ? { path: "data", code: "data_must_be_field", message: "data must be a text field holding a JSON string, not a file" }
          : { path: field, code: "unexpected_file", message: `files are only accepted in the "files" part` },
      ]);
    case "LIMIT_FIELD_VALUE":
      return new AppError("payload_too_large", `Field "${field}" is too large`, [
        { path: field, code: "field_too_large", message: "field value exceeds the maximum field size" },
      ]);
    default:
      return new AppError("validation_failed", "Malformed multipart request", [{ path: field || "body", code: err.code.toLowerCase(), message: err.message }]);
  }
}

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new AppError("not_found", `No route for ${req.method} ${req.path}`));
}

/**
 * The single place that shapes error bodies; 500s hide details behind an errorId that is logged, and
 * PostgreSQL or Redis being away is a 503 with Retry-After (unavailable.ts).
 */
export function errorHandler(logger: Logger) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    let appError: AppError | undefined;
    if (err instanceof AppError) appError = err;
    else if (err instanceof URIError) appError = malformedEscapeError();
    else if (err instanceof MulterError) appError = fromMulter(err);
    else {
      const e = err as HttpishError;
      const status = e.status ?? e.statusCode;
      if (e.type === "entity.too.large") appError = new AppError("payload_too_large", "Request body too large");
      else if (e.type === "entity.parse.failed") appError = new AppError("bad_request", "Request body is not valid JSON");
      else if (status && status >= 400 && status < 500 && e.expose) {
        appError = new AppError(status === 415 ? "unsupported_media_type" : "bad_request", e.message ?? "Bad request");
      } else if (e.message === "Unexpected end of form" || e.message === "Multipart: Boundary not found" || e.message === "Malformed part header") {
        appError = new AppError("bad_request", `Malformed multipart body: ${e.message}`);
      } else if (e.message === "Request aborted" || e.message === "Request closed") {
        // multer's report of a client that went away mid-upload: not a server fault, nobody to answer.
        appError = new AppError("bad_request", "The client closed the request before it was complete");
      } else {
        appError = unavailableError(err, logger);
      }
    }
    if (res.headersSent) return;
    if (appError) {
      for (const [k, v] of Object.entries(appError.headers ?? {})) res.setHeader(k, v);
      res.status(appError.statusCode).json(appError.toBody());
      return;
    }
    const errorId = randomUUID();
    logger.error("unhandled error", { errorId, requestId: requestIdOf(res), err });
    res.status(500).json({ error: "internal_error", message: "Internal server error", statusCode: 500, errorId });
  };
}
