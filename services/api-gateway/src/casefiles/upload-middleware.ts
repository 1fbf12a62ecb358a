import multer from "multer";
import type { AppConfig } from "@esign/config";
import type { FileStorage } from "@esign/storage";
import { stagingStorageEngine } from "./staging-storage-engine";

/** File parts are `files` (repeated); `files[]` is accepted for clients that add PHP-style brackets. */
export const FILE_FIELDS = ["files", "files[]"] as const;

/** Every multer limit set from config: a request can never make the gateway buffer or loop unbounded. */
export function createUploadMiddleware(config: AppConfig, storage: FileStorage) {
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
