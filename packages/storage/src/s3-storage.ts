import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { S3FileStorage } from "./s3-file-storage";
import { StorageConfigError, type StorageLogger, type StorageSettings } from "./storage-settings";

// Loaded only when STORAGE_BACKEND=s3 (create-storage.ts imports it on demand): requiring the AWS SDK
// costs a service some 140 ms of CPU at every start, which the local backend need not pay.

/** The SDK's logger: its warnings and errors to ours (it prints them to stderr when given none), the rest dropped. */
function sdkLogger(logger: StorageLogger | undefined) {
  const drop = () => undefined;
  const warn = (...content: unknown[]) => logger?.warn("AWS SDK", { sdk: content.map((c) => (c instanceof Error ? c.message : c)) });
  return { trace: drop, debug: drop, info: drop, warn, error: warn };
}

export function createS3Client(s: StorageSettings, logger?: StorageLogger): S3Client {
  return new S3Client({
    logger: sdkLogger(logger),
    region: s.S3_REGION,
    ...(s.S3_ENDPOINT ? { endpoint: s.S3_ENDPOINT } : {}),
    forcePathStyle: s.S3_FORCE_PATH_STYLE,
    // Unset: the SDK's own chain (AWS_* variables, a web identity token such as EKS's IRSA, the instance's role).
    ...(s.S3_ACCESS_KEY_ID && s.S3_SECRET_ACCESS_KEY ? { credentials: { accessKeyId: s.S3_ACCESS_KEY_ID, secretAccessKey: s.S3_SECRET_ACCESS_KEY } } : {}),
    // Since 3.729 the SDK adds CRC checksums in aws-chunked trailers to every upload unless told
    // otherwise, which many S3-compatible stores refuse; SigV4 already covers each request, and every
    // document is addressed (and checked) by its SHA-256.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

interface S3ErrorShape {
  name?: string;
  Code?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/**
 * Lists no key of the bucket (MaxKeys 0): the cheapest request that proves the bucket exists and these
 * credentials may use it. Each refusal becomes a message naming the setting to fix.
 */
export async function checkBucket(client: S3Client, s: StorageSettings): Promise<void> {
  const where = `bucket "${s.S3_BUCKET}" at ${s.S3_ENDPOINT ?? `AWS S3 (${s.S3_REGION})`}`;
  try {
    await client.send(new ListObjectsV2Command({ Bucket: s.S3_BUCKET, MaxKeys: 0, ...(s.S3_KEY_PREFIX ? { Prefix: s.S3_KEY_PREFIX } : {}) }));
  } catch (err) {
    const e = err as S3ErrorShape;
    const code = e.name ?? e.Code ?? e.code ?? "";
    const status = e.$metadata?.httpStatusCode;
    if (code === "NoSuchBucket" || (status === 404 && code !== "NotFound"))
      throw new StorageConfigError(`S3_BUCKET: ${where} does not exist; create it, or correct S3_BUCKET`);
    if (code === "InvalidAccessKeyId") throw new StorageConfigError(`S3_ACCESS_KEY_ID: the object store does not know this access key (${where})`);
    if (code === "SignatureDoesNotMatch")
      throw new StorageConfigError(`S3_SECRET_ACCESS_KEY: the object store refused the request's signature: wrong secret key for this access key (${where})`);
    if (code === "AccessDenied" || status === 403)
      throw new StorageConfigError(
        `S3_ACCESS_KEY_ID: these credentials may not list ${where} (s3:ListBucket, s3:GetObject and s3:PutObject are needed): ${code || status}`,
      );
    if (code === "CredentialsProviderError")
      throw new StorageConfigError(
        `S3_ACCESS_KEY_ID: no credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or give the process an AWS role (${e.message})`,
      );
    const network = (err as { code?: string }).code ?? code;
    throw new StorageConfigError(`S3_ENDPOINT: ${where} could not be reached or answered ${status ?? "nothing"}: ${network} ${e.message ?? ""}`.trim());
  }
}

/** The bucket of the settings, checked (checkBucket), as the documents' store. */
export async function createS3Storage(s: StorageSettings & { S3_BUCKET: string }, logger?: StorageLogger): Promise<S3FileStorage> {
  const client = createS3Client(s, logger);
  await checkBucket(client, s);
  return new S3FileStorage({
    client,
    bucket: s.S3_BUCKET,
    keyPrefix: s.S3_KEY_PREFIX,
    stagingRoot: path.resolve(s.STORAGE_DIR),
    ...(logger ? { logger } : {}),
  });
}
