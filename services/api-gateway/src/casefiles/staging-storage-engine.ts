import type { Request } from "express";
import type { StorageEngine } from "multer";
import type { FileStorage, StagedFile } from "@esign/storage";

/** The multer file object once our engine has staged it. */
export type StagedUpload = Express.Multer.File & { staged: StagedFile };

/**
 * A multer storage engine that streams each part into the file storage's staging area, hashing as it
 * goes. At most SYNC_WRITE_BYTES of a part is held in memory (@esign/storage), so a 50 MB upload costs
 * no more RSS than a 256 KB one.
 */
export function stagingStorageEngine(storage: FileStorage): StorageEngine {
  return {
    _handleFile(_req: Request, file, cb) {
      storage.stage(file.stream).then(
        (staged) => cb(null, { size: staged.size, staged } as Partial<StagedUpload>),
        (err: unknown) => cb(err as Error),
      );
    },
    _removeFile(_req: Request, file, cb) {
      const staged = (file as Partial<StagedUpload>).staged;
      if (!staged) return cb(null);
      storage.discard(staged).then(
        () => cb(null),
        (err: unknown) => cb(err as Error),
      );
    },
  };
}
