import type { RequestHandler, Response } from "express";
import multer from "multer";
import type { AppConfig } from "@esign/config";
import type { Logger } from "@esign/logger";
import type { FileStorage } from "@esign/storage";
import { type StagedUpload, stagingStorageEngine } from "./staging-storage-engine";

/** File parts are `files` (repeated); `files[]` is accepted for clients that add PHP-style brackets. */
export const FILE_FIELDS = ["files", "files[]"] as const;

const CLAIMED = Symbol("uploads claimed by the route");

function stagedParts(req: Express.Request): StagedUpload[] {
  const files = req.files as Record<string, StagedUpload[]> | undefined;
  return FILE_FIELDS.flatMap((name) => files?.[name] ?? []);
}

/**
 * The staged file parts of a request, taken over by the route: from here on the route commits or
 * discards each of them (before it answers, so a test or a client sees staging clean at once).
 */
export function claimUploads(req: Express.Request, res: Response): StagedUpload[] {
  (res.locals as Record<symbol, boolean>)[CLAIMED] = true;
  return stagedParts(req);
}

/**
 * Reads the multipart body, streaming every file part into staging. When the request is refused
 * before its route takes the parts over (an invalid header, a body the contract refuses), they are
 * discarded once the answer is out: a refused request leaves nothing behind.
 */
export function createUploadMiddleware(config: AppConfig, storage: FileStorage, logger: Logger): RequestHandler {
  const read = multerFor(config, storage);
  const discard = (upload: StagedUpload) =>
    storage.discard(upload.staged).catch((err: unknown) => logger.warn("could not discard a staged upload", { file: upload.staged.stagingId, err }));
  return (req, res, next) => {
    res.once("close", () => {
      if (!(res.locals as Record<symbol, boolean>)[CLAIMED]) void Promise.all(stagedParts(req).map(discard));
    });
    read(req, res, next);
  };
}

/** Every multer limit set from config: a request can never make the gateway buffer or loop unbounded. */
function multerFor(config: AppConfig, storage: FileStorage) {
  return multer({
    storage: stagingStorageEngine(storage),
    // Browsers and fetch send file names as raw UTF-8; busboy's default (latin1) turns "æøå.pdf" into
    // mojibake that then matches no document name. RFC 5987 `filename*=` still wins when present.
    defParamCharset: "utf8",
    limits: {
      fileSize: config.UPLOAD_MAX_FILE_BYTES,
      files: config.UPLOAD_MAX_FILES,
      fields: config.UPLOAD_MAX_FIELDS,
      fieldSize: config.UPLOAD_MAX_FIELD_BYTES,
      fieldNameSize: 100,
      parts: config.UPLOAD_MAX_FILES + config.UPLOAD_MAX_FIELDS,
      headerPairs: 200,
    },
  }).fields(FILE_FIELDS.map((name) => ({ name, maxCount: config.UPLOAD_MAX_FILES })));
}
