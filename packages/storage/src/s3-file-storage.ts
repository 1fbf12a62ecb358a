import { createReadStream } from "node:fs";
import { createHash } from "node:crypto";
import { PassThrough, type Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { FileStorage, StagedFile } from "./file-storage";
import { LocalFileStorage } from "./local-file-storage";
import { asStorageUnavailable, orUnavailable, withTransientRetry } from "./s3-transient";
import type { StorageLogger } from "./storage-settings";

export interface S3FileStorageOptions {
  client: S3Client;
  bucket: string;
  /** Prepended to every key (`documents/`): several installations, or other data, in one bucket. */
  keyPrefix?: string;
  /** A local folder for uploads in flight: they are hashed and inspected there before they are committed. */
  stagingRoot: string;
  /** Told of each upload put again after a dropped connection. */
  logger?: StorageLogger;
}

/** The error a read of a missing document fails with, as a local file's would (callers answer 404 or retry). */
function notFound(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`no object ${key} in the bucket`), { code: "ENOENT" });
}

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
};

/**
 * Content-addressed documents in an S3 bucket (AWS S3 or any store that speaks its protocol), so every
 * replica on every node sees the same files without a shared volume. Keys are `<prefix>ab/cd/<sha256>`,
 * as the local layout. Uploads are staged on local disk first (hashed while they stream, opened by the
 * PDF inspector there) and reach the bucket only when committed; a rejected request leaves nothing in it.
 */
export class S3FileStorage implements FileStorage {
  private readonly staging: LocalFileStorage;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly logger: StorageLogger | undefined;

  constructor(options: S3FileStorageOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.prefix = options.keyPrefix ?? "";
    this.logger = options.logger;
    this.staging = new LocalFileStorage(options.stagingRoot);
  }

  keyOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error("not a sha256 content address");
    return `${this.prefix}${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  }

  stage(source: Readable): Promise<StagedFile> {
    return this.staging.stage(source);
  }

  stagedPath(file: StagedFile): string {
    return this.staging.stagedPath(file);
  }

  discard(file: StagedFile): Promise<void> {
    return this.staging.discard(file);
  }

  async commit(file: StagedFile): Promise<string> {
    // Streamed from the staged file (never the whole upload in memory). An object already at this key
    // has these very bytes: writing it again is harmless, and cheaper than asking first; so is a retry
    // after a dropped connection, on a fresh stream (s3-transient.ts).
    const key = this.keyOf(file.sha256);
    await withTransientRetry(
      async () => {
        const body = createReadStream(this.stagedPath(file));
        try {
          await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: file.size }));
        } finally {
          // A request cut short leaves its stream unread, and its file open.
          body.destroy();
        }
      },
      (err, failedTry) =>
        this.logger?.warn("object store upload failed; putting it again", { key, try: failedTry, error: err instanceof Error ? err.message : String(err) }),
    );
    await this.staging.discard(file);
    return file.sha256;
  }

  async put(content: Buffer): Promise<string> {
    const sha256 = createHash("sha256").update(content).digest("hex");
    // A body held in memory: the SDK retries it itself.
    await orUnavailable(this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256), Body: content, ContentLength: content.length })));
    return sha256;
  }

  /** A stream at once (as a file's), filled when the object store answers; a missing object fails it with ENOENT. */
  read(sha256: string): Readable {
    const out = new PassThrough();
    const key = this.keyOf(sha256);
    this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })).then(
      (r) => {
        const body = r.Body as Readable | undefined;
        if (!body) return out.destroy(notFound(key));
        body.on("error", (err) => out.destroy(asStorageUnavailable(err) as Error));
        // The reader went away (a client hung up): stop downloading.
        out.on("close", () => body.destroy());
        body.pipe(out);
      },
      (err: unknown) => out.destroy(isNotFound(err) ? notFound(key) : (asStorageUnavailable(err) as Error)),
    );
    return out;
  }

  async readAll(sha256: string): Promise<Buffer> {
    const key = this.keyOf(sha256);
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!r.Body) throw notFound(key);
      return Buffer.from(await r.Body.transformToByteArray());
    } catch (err) {
      throw isNotFound(err) ? notFound(key) : asStorageUnavailable(err);
    }
  }

  async exists(sha256: string): Promise<boolean> {
    try {
      await orUnavailable(this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) })));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  /** Deletes a document for good (the recycle bin's purge); deleting a key that is not there succeeds, as on S3. */
  async remove(sha256: string): Promise<void> {
    await orUnavailable(this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) })));
  }
}
