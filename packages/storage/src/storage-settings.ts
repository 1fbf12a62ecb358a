/** The settings of packages/config that choose and reach the documents' store (docs/operating.md). */
export interface StorageSettings {
  STORAGE_BACKEND: "local" | "s3";
  /** local: the documents; s3: only the staging area of uploads in flight. */
  STORAGE_DIR: string;
  S3_BUCKET?: string | undefined;
  S3_ENDPOINT?: string | undefined;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_FORCE_PATH_STYLE: boolean;
  S3_KEY_PREFIX?: string | undefined;
}

/** The object store cannot be used as configured: the message names the setting to fix. */
export class StorageConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StorageConfigError";
  }
}

/**
 * Where the store's warnings go (a service's logger): a retried upload, and the AWS SDK's own
 * warnings, which it would otherwise print to stderr as plain text among the JSON lines.
 */
export interface StorageLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}
