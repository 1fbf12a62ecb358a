import express, { type NextFunction, type Request, type Response } from "express";
import multer from "multer";
import { AppError } from "@esign/errors";

/** The multipart part that carries the PDF to verify. */
export const VERIFY_FILE_FIELD = "file";

const RAW_TYPES = ["application/pdf", "application/octet-stream"];

/**
 * The PDF of a public verification, in memory and bounded: either the raw request body
 * (Content-Type application/pdf or application/octet-stream) or one multipart part named `file`.
 * Anything else is a 4xx naming what is wrong; the size limit answers 413.
 */
export function readPdfUpload(maxBytes: number) {
  const raw = express.raw({ type: RAW_TYPES, limit: maxBytes });
  const multipart = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 50 },
  }).single(VERIFY_FILE_FIELD);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.is("multipart/form-data")) return multipart(req, res, next);
    if (req.is(RAW_TYPES)) return raw(req, res, next);
    next(
      new AppError("unsupported_media_type", 'Send the PDF as the request body (Content-Type: application/pdf) or as a multipart part named "file"', [
        {
          path: "body",
          code: "unsupported_media_type",
          message: `Content-Type must be application/pdf or multipart/form-data, not ${req.header("content-type") ?? "none"}`,
        },
      ]),
    );
  };
}

/** The uploaded bytes, or a 400 that says which field is missing. */
export function uploadedPdf(req: Request): Buffer {
  const file = (req as Request & { file?: Express.Multer.File }).file;
  const bytes = file ? file.buffer : Buffer.isBuffer(req.body) ? req.body : null;
  const path = req.is("multipart/form-data") ? VERIFY_FILE_FIELD : "body";
  if (!bytes || bytes.length === 0)
    throw new AppError("validation_failed", "No PDF was sent", [{ path, code: "required", message: "the PDF to verify is missing" }]);
  const head = bytes.subarray(0, 1024);
  if (head.indexOf("%PDF-") < 0)
    throw new AppError("validation_failed", "The file is not a PDF", [{ path, code: "not_a_pdf", message: "the content is not a PDF (no %PDF- header)" }]);
  return bytes;
}
