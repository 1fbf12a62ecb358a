import path from "node:path";
import type { FileStorage } from "./file-storage";
import { LocalFileStorage } from "./local-file-storage";
import { StorageConfigError, type StorageLogger, type StorageSettings } from "./storage-settings";

/**
 * The documents' store the settings choose: the local folder STORAGE_DIR, or an S3 bucket (with
 * STORAGE_DIR as the staging area of uploads). For S3 the bucket is checked first, so a missing bucket
 * or wrong credentials stop the service at start with a StorageConfigError naming the setting, instead
 * of failing the first upload with a 500. The AWS SDK is loaded only then.
 */
export async function createStorage(s: StorageSettings, logger?: StorageLogger): Promise<FileStorage> {
  if (s.STORAGE_BACKEND === "local") return new LocalFileStorage(path.resolve(s.STORAGE_DIR));
  const bucket = s.S3_BUCKET;
  if (!bucket) throw new StorageConfigError("S3_BUCKET: required when STORAGE_BACKEND=s3");
  const { createS3Storage } = await import("./s3-storage");
  return createS3Storage({ ...s, S3_BUCKET: bucket }, logger);
}
