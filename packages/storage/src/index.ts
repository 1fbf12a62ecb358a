export type { FileStorage, StagedFile } from "./file-storage";
export { LocalFileStorage } from "./local-file-storage";
// The S3 store itself (s3-file-storage.ts, s3-storage.ts) is not re-exported: importing this package
// must not load the AWS SDK; createStorage loads it when the settings ask for S3.
export { createStorage } from "./create-storage";
export { StorageConfigError } from "./storage-settings";
export type { StorageLogger, StorageSettings } from "./storage-settings";
export { looksLikePdf } from "./pdf-signature";
