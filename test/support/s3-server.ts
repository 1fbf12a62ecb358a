import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/**
 * A real S3 protocol server on this machine: s3rver (npm), objects as files in a temporary folder.
 * Why this one: packages/storage/README.md. Its one key pair is S3RVER / S3RVER.
 */
export interface S3Server {
  endpoint: string;
  port: number;
  accessKeyId: string;
  secretAccessKey: string;
  dir: string;
  /** The keys of a bucket, read from s3rver's own folder (each object a `<key>._S3rver_object` file). */
  objectKeys(bucket: string): string[];
  close(): Promise<void>;
}

export const S3RVER_KEY = "S3RVER";
const OBJECT_SUFFIX = "._S3rver_object";

export async function startS3Server(buckets: string[], port = 0): Promise<S3Server> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "esign-s3-"));
  const server = new S3rver({
    port,
    address: "127.0.0.1",
    silent: true,
    directory: dir,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
    // Path-style only: every client here names the bucket in the path.
    vhostBuckets: false,
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    port: address.port,
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    dir,
    objectKeys(bucket) {
      const root = path.join(dir, bucket);
      const walk = (d: string): string[] =>
        readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
      return walk(root)
        .filter((f) => f.endsWith(OBJECT_SUFFIX))
        .map((f) => path.relative(root, f).slice(0, -OBJECT_SUFFIX.length));
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
