import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import net from "node:net";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { STORAGE_UNAVAILABLE_CODE, unavailableDependency } from "@esign/errors";
import { bundlePath } from "../../../scripts/build-services";
import { freePort } from "../../../test/support/ports";
import { startS3Server, type S3Server } from "../../../test/support/s3-server";
import { createStorage, StorageConfigError, type StorageSettings } from "../src";
import { S3FileStorage } from "../src/s3-file-storage";
import { createS3Client } from "../src/s3-storage";

/*
 * The documents' S3 store against a real S3 protocol server on this machine (s3rver, see the README):
 * two replicas (two storages, each with its own staging folder) sharing one bucket, and the start-up
 * check that turns a missing bucket, unknown credentials or an unreachable endpoint into a clear error.
 */

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const pdfOf = (n: number) => Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(n, 7), Buffer.from("\n%%EOF\n")]);

let server: S3Server;
let dir: string;
let settings: StorageSettings;

async function readStream(r: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function keysInBucket(): Promise<string[]> {
  const r = await createS3Client(settings).send(new ListObjectsV2Command({ Bucket: "documents" }));
  return (r.Contents ?? []).map((o) => o.Key ?? "");
}

/**
 * A TCP proxy to the S3 server that drops the next `drop` requests: the connection a request arrives on
 * (new or kept alive) is closed at its first bytes, as a store closing an idle kept-alive socket just
 * as a request goes out on it (the client sees "socket hang up"). Others pass through.
 */
async function startDroppingProxy(targetPort: number, drop: number) {
  let toDrop = drop;
  let dropped = 0;
  let requests = 0;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => undefined);
  };
  const proxy = net.createServer((client) => {
    track(client);
    let upstream: net.Socket | undefined;
    client.on("data", (chunk: Buffer) => {
      // A request's first bytes (the client sends one request at a time on a connection).
      if (/^(GET|PUT|HEAD|POST|DELETE) \//.test(chunk.subarray(0, 8).toString("latin1"))) requests += 1;
      if (toDrop > 0) {
        toDrop -= 1;
        dropped += 1;
        upstream?.destroy();
        return void client.destroy();
      }
      if (!upstream) {
        upstream = net.connect(targetPort, "127.0.0.1");
        track(upstream);
        upstream.on("data", (answer: Buffer) => client.write(answer));
        upstream.on("close", () => client.destroy());
        client.on("close", () => upstream?.destroy());
      }
      upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    dropped: () => dropped,
    requests: () => requests,
    dropNext(n: number) {
      toDrop = n;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

beforeAll(async () => {
  server = await startS3Server(["documents"]);
  dir = mkdtempSync(path.join(os.tmpdir(), "esign-s3-staging-"));
  settings = {
    STORAGE_BACKEND: "s3",
    STORAGE_DIR: path.join(dir, "replica-a"),
    S3_BUCKET: "documents",
    S3_ENDPOINT: server.endpoint,
    S3_REGION: "eu-north-1",
    S3_ACCESS_KEY_ID: server.accessKeyId,
    S3_SECRET_ACCESS_KEY: server.secretAccessKey,
    S3_FORCE_PATH_STYLE: true,
    S3_KEY_PREFIX: "esign/",
  };
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("S3 documents store", () => {
  it("one replica commits an upload, another reads it (stream, whole, exists), under its content address", async () => {
    const a = await createStorage(settings);
    const b = await createStorage({ ...settings, STORAGE_DIR: path.join(dir, "replica-b") });
    expect(a).toBeInstanceOf(S3FileStorage);
    const content = pdfOf(3 * 1024 * 1024);
    const staged = await a.stage(Readable.from([content.subarray(0, 100_000), content.subarray(100_000)]));
    expect(staged).toMatchObject({ sha256: sha(content), size: content.length });
    // Staged on the replica's disk (the PDF inspector opens it there), not yet in the bucket.
    expect(await b.exists(staged.sha256)).toBe(false);
    expect(await a.commit(staged)).toBe(sha(content));

    expect(await b.exists(staged.sha256)).toBe(true);
    expect((await b.readAll(staged.sha256)).equals(content)).toBe(true);
    expect((await readStream(b.read(staged.sha256))).equals(content)).toBe(true);
    const s = sha(content);
    expect(await keysInBucket()).toContain(`esign/${s.slice(0, 2)}/${s.slice(2, 4)}/${s}`);
    expect(readdirSync(path.join(dir, "replica-a", ".staging"))).toEqual([]);
  });

  it("puts generated content (a sealed document) that the other replica reads back", async () => {
    const a = await createStorage(settings);
    const b = await createStorage({ ...settings, STORAGE_DIR: path.join(dir, "replica-b") });
    const sealed = pdfOf(20_000);
    const address = await b.put(sealed);
    expect(address).toBe(sha(sealed));
    expect((await a.readAll(address)).equals(sealed)).toBe(true);
    // The same bytes again: the same address, no error.
    expect(await a.put(sealed)).toBe(address);
  });

  it("an upload whose connection the store drops (a kept-alive socket closed as the request goes out) is put again on a fresh stream; a store that keeps dropping fails it after 3 tries", async () => {
    const proxy = await startDroppingProxy(server.port, 1);
    const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
    const logger = { warn: (message: string, fields?: Record<string, unknown>) => void warnings.push({ message, ...(fields ? { fields } : {}) }) };
    const stderr = jest.spyOn(console, "warn");
    try {
      const storage = new S3FileStorage({
        client: createS3Client({ ...settings, S3_ENDPOINT: proxy.endpoint }, logger),
        bucket: "documents",
        keyPrefix: "esign/",
        stagingRoot: path.join(dir, "replica-dropped"),
        logger,
      });
      const content = pdfOf(200_000);
      const staged = await storage.stage(Readable.from([content]));
      expect(await storage.commit(staged)).toBe(sha(content));
      expect(proxy.dropped()).toBe(1);
      // Said in the service's log, the SDK's own warning too, and nothing printed as plain text.
      expect(warnings.filter((w) => w.message === "object store upload failed; putting it again").map((w) => w.fields?.try)).toEqual([1]);
      expect(warnings.some((w) => w.message === "AWS SDK")).toBe(true);
      expect(stderr).not.toHaveBeenCalled();
      expect((await storage.readAll(staged.sha256)).equals(content)).toBe(true);
      expect(readdirSync(path.join(dir, "replica-dropped", ".staging"))).toEqual([]);

      proxy.dropNext(Number.POSITIVE_INFINITY);
      const again = await storage.stage(Readable.from([pdfOf(1234)]));
      const err = await storage.commit(again).catch((e: unknown) => e);
      // The store is away, not the request wrong: a 503 with Retry-After, a job that waits for it.
      expect(err).toMatchObject({ code: STORAGE_UNAVAILABLE_CODE });
      expect(unavailableDependency(err)).toBe("storage");
      expect(proxy.dropped()).toBe(1 + 3);
      // Not committed: the staged file stays for the caller to discard.
      expect(readdirSync(path.join(dir, "replica-dropped", ".staging"))).toHaveLength(1);
    } finally {
      stderr.mockRestore();
      await proxy.close();
    }
  });

  it("a refusal by the store (no such bucket) is no outage: thrown as the store's error, tried once", async () => {
    const proxy = await startDroppingProxy(server.port, 0);
    try {
      const client = createS3Client({ ...settings, S3_ENDPOINT: proxy.endpoint });
      const storage = new S3FileStorage({ client, bucket: "no-such-bucket", keyPrefix: "esign/", stagingRoot: path.join(dir, "replica-refused") });
      const staged = await storage.stage(Readable.from([pdfOf(100)]));
      const err = await storage.commit(staged).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: "NoSuchBucket" });
      expect(unavailableDependency(err)).toBeUndefined();
      expect(proxy.requests()).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it("a discarded upload never reaches the bucket", async () => {
    const a = await createStorage(settings);
    const before = await keysInBucket();
    const staged = await a.stage(Readable.from([pdfOf(1000)]));
    await a.discard(staged);
    expect(await keysInBucket()).toEqual(before);
    expect(readdirSync(path.join(dir, "replica-a", ".staging"))).toEqual([]);
  });

  it("removes a document for good (the recycle bin's purge): gone for every replica; removing it again succeeds", async () => {
    const a = await createStorage(settings);
    const b = await createStorage({ ...settings, STORAGE_DIR: path.join(dir, "replica-b") });
    const doomed = pdfOf(5_000);
    const kept = pdfOf(6_000);
    const [gone, stays] = [await a.put(doomed), await a.put(kept)];
    await b.remove(gone);
    expect(await a.exists(gone)).toBe(false);
    expect(await keysInBucket()).not.toContain(`esign/${gone.slice(0, 2)}/${gone.slice(2, 4)}/${gone}`);
    expect(await a.exists(stays)).toBe(true);
    await expect(a.remove(gone)).resolves.toBeUndefined();
  });

  it("a missing document: exists is false, reads fail with ENOENT (as a missing file's)", async () => {
    const a = await createStorage(settings);
    const missing = "0".repeat(64);
    expect(await a.exists(missing)).toBe(false);
    await expect(a.readAll(missing)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(readStream(a.read(missing))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses to start on a missing bucket, naming S3_BUCKET", async () => {
    await expect(createStorage({ ...settings, S3_BUCKET: "no-such-bucket" })).rejects.toThrow(StorageConfigError);
    await expect(createStorage({ ...settings, S3_BUCKET: "no-such-bucket" })).rejects.toThrow(
      /^S3_BUCKET: bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ does not exist/,
    );
  });

  it("refuses to start on credentials the store does not know, naming S3_ACCESS_KEY_ID", async () => {
    await expect(createStorage({ ...settings, S3_ACCESS_KEY_ID: "NOT-A-KEY" })).rejects.toThrow(
      /^S3_ACCESS_KEY_ID: the object store does not know this access key/,
    );
  });

  it("refuses to start when the endpoint does not answer, naming S3_ENDPOINT", async () => {
    const closed = `http://127.0.0.1:${server.port === 1 ? 2 : 1}`;
    await expect(createStorage({ ...settings, S3_ENDPOINT: closed })).rejects.toThrow(
      /^S3_ENDPOINT: bucket "documents" at http:\/\/127\.0\.0\.1:\d+ could not be reached/,
    );
  });

  it("a service started on a missing bucket exits at once, its log naming S3_BUCKET (not a 500 at the first upload)", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [bundlePath("api-gateway")], {
      env: {
        ...process.env,
        PORT: String(port),
        STORAGE_BACKEND: "s3",
        STORAGE_DIR: path.join(dir, "gateway"),
        S3_BUCKET: "no-such-bucket",
        S3_ENDPOINT: server.endpoint,
        S3_ACCESS_KEY_ID: server.accessKeyId,
        S3_SECRET_ACCESS_KEY: server.secretAccessKey,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(output).toMatch(/failed to start.*S3_BUCKET: bucket \\"no-such-bucket\\" at http:\/\/127\.0\.0\.1:\d+ does not exist/);
  });

  it("the local backend stays the default: a folder, no object store asked", async () => {
    const local = await createStorage({ ...settings, STORAGE_BACKEND: "local", S3_ENDPOINT: "http://127.0.0.1:1" });
    const content = Buffer.from("%PDF-1.4 local %%EOF");
    expect(await local.put(content)).toBe(sha(content));
    expect((await local.readAll(sha(content))).equals(content)).toBe(true);
  });
});
