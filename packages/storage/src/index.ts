export type { FileStorage, StagedFile } from "./file-storage";
export { LocalFileStorage } from "./local-file-storage";
export { S3FileStorage } from "./s3-file-storage";
export type { S3FileStorageOptions } from "./s3-file-storage";
export { createStorage, createS3Client, checkBucket, StorageConfigError } from "./create-storage";
export type { StorageSettings } from "./create-storage";
export { looksLikePdf } from "./pdf-signature";
