import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { LocalFileStorage, SYNC_WRITE_BYTES } from "../src/local-file-storage";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const staged = (root: string) => readdirSync(path.join(root, ".staging"));

let root: string;
let storage: LocalFileStorage;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "esign-storage-test-"));
  storage = new LocalFileStorage(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("LocalFileStorage", () => {
  it("stages a stream with its hash, size, head and tail, and commits it to its content address", async () => {
    const content = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(5000, 7), Buffer.from("\n%%EOF\n")]);
    const file = await storage.stage(Readable.from([content.subarray(0, 3000), content.subarray(3000)]));
    expect(file).toMatchObject({ sha256: sha(content), size: content.length });
    expect(file.head.equals(content.subarray(0, 1024))).toBe(true);
    expect(file.tail.equals(content.subarray(content.length - 1024))).toBe(true);
    expect(await storage.exists(file.sha256)).toBe(false);

    expect(await storage.commit(file)).toBe(sha(content));
    expect(await storage.exists(file.sha256)).toBe(true);
    expect((await storage.readAll(file.sha256)).equals(content)).toBe(true);
    expect(readdirSync(path.join(root, file.sha256.slice(0, 2), file.sha256.slice(2, 4)))).toEqual([file.sha256]);
    expect(staged(root)).toEqual([]);
  });

  it("commits the same content twice to one file, leaving nothing staged", async () => {
    const content = Buffer.from("%PDF-1.4 same bytes %%EOF");
    const a = await storage.stage(Readable.from([content]));
    const b = await storage.stage(Readable.from([content]));
    await storage.commit(a);
    await storage.commit(b);
    expect((await storage.readAll(sha(content))).equals(content)).toBe(true);
    expect(staged(root)).toEqual([]);
  });

  it("makes the content folder again when it was removed under a running process", async () => {
    const first = Buffer.from("first");
    await storage.commit(await storage.stage(Readable.from([first])));
    rmSync(path.join(root, sha(first).slice(0, 2)), { recursive: true });
    await storage.commit(await storage.stage(Readable.from([first])));
    expect((await storage.readAll(sha(first))).equals(first)).toBe(true);
  });

  it("discards a staged file, and fails a commit whose staged file is gone", async () => {
    const file = await storage.stage(Readable.from([Buffer.from("to be dropped")]));
    await storage.discard(file);
    expect(staged(root)).toEqual([]);
    await expect(storage.commit(file)).rejects.toMatchObject({ code: "ENOENT" });
    expect(await storage.exists(file.sha256)).toBe(false);
  });

  it("fails a stage whose source errors midway, and leaves nothing staged", async () => {
    const source = new Readable({ read() {} });
    const staging = storage.stage(source);
    source.push(Buffer.alloc(64 * 1024, 1));
    setTimeout(() => source.destroy(new Error("client hung up")), 20);
    await expect(staging).rejects.toThrow("client hung up");
    expect(staged(root)).toEqual([]);
  });

  it("fails a stage whose source closes without ending (no hang), and leaves nothing staged", async () => {
    const source = new Readable({ read() {} });
    const staging = storage.stage(source);
    source.push(Buffer.from("%PDF-1.7 half a file"));
    setTimeout(() => source.destroy(), 20);
    await expect(staging).rejects.toMatchObject({ code: "ERR_STREAM_PREMATURE_CLOSE" });
    expect(staged(root)).toEqual([]);
  });

  it("stages a source of many chunks larger than the write buffer with its exact bytes", async () => {
    const chunks = Array.from({ length: 64 }, (_, i) => Buffer.alloc(64 * 1024, i));
    const file = await storage.stage(Readable.from(chunks));
    const all = Buffer.concat(chunks);
    expect(file).toMatchObject({ sha256: sha(all), size: all.length });
    expect(file.head.equals(all.subarray(0, 1024))).toBe(true);
    expect(file.tail.equals(all.subarray(all.length - 1024))).toBe(true);
    await storage.commit(file);
    expect(sha(await storage.readAll(file.sha256))).toBe(sha(all));
  });

  it("stages a source that outgrows the held bytes midway with its exact bytes, those held first", async () => {
    // Chunks of a third of the limit: the fourth crosses it, inside a 'data' event.
    const chunks = Array.from({ length: 5 }, (_, i) => Buffer.alloc(Math.ceil(SYNC_WRITE_BYTES / 3), i + 1));
    const file = await storage.stage(Readable.from(chunks));
    const all = Buffer.concat(chunks);
    expect(file).toMatchObject({ sha256: sha(all), size: all.length });
    await storage.commit(file);
    expect((await storage.readAll(file.sha256)).equals(all)).toBe(true);
  });

  it("fails a stage whose source errors while its staging folder is still being made, instead of an unhandled error", async () => {
    // A fresh storage makes its staging folder at the first stage, through the thread pool: a client
    // hanging up meanwhile errored a stream nobody listened to yet (a CI run, 2026-11-27).
    const source = new Readable({ read() {} });
    const staging = storage.stage(source);
    source.destroy(new Error("client hung up"));
    await expect(staging).rejects.toThrow("client hung up");
    expect(staged(root)).toEqual([]);
  });

  it("fails a stage whose source errors after it outgrew the held bytes, and leaves nothing staged", async () => {
    const source = new Readable({ read() {} });
    const staging = storage.stage(source);
    source.push(Buffer.alloc(SYNC_WRITE_BYTES + 1, 1));
    setTimeout(() => source.destroy(new Error("client hung up")), 20);
    await expect(staging).rejects.toThrow("client hung up");
    expect(staged(root)).toEqual([]);
  });
});
