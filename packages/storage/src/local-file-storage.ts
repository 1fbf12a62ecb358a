import { createHash, randomUUID } from "node:crypto";
import { closeSync, createReadStream, createWriteStream, open, renameSync, statSync, writeFileSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { finished, type Readable } from "node:stream";
import type { FileStorage, StagedFile } from "./file-storage";

const EDGE = 1024;
/**
 * An upload that ends within this many bytes (most PDFs) is held in memory, and once its file is
 * open, written and closed in synchronous calls; a larger one streams to the file through the thread
 * pool, as all did. Each thread-pool operation cost 30-50 us of CPU in hops and wake-ups on the bench
 * machine, against a few microseconds for a page-cache write of this size made directly. The file's
 * creation stays in the thread pool, as do new folders: making an inode is the step a file system
 * may make slow (0.5-0.7 ms of kernel CPU each in one folder of the bench machine), and the event
 * loop must not wait for it (bench/README.md round 10). Bounded so that an upload's memory stays
 * small whatever its size.
 */
export const SYNC_WRITE_BYTES = 256 * 1024;

/** Content-addressed files on local disk: `<root>/ab/cd/<sha256>`, staging in `<root>/.staging`. */
export class LocalFileStorage implements FileStorage {
  private readonly staging: string;
  // Folders known to exist: a recursive mkdir per file was a syscall (and a thread-pool hop) per upload.
  private readonly madeDirs = new Set<string>();

  constructor(private readonly root: string) {
    this.staging = path.join(root, ".staging");
  }

  private pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error("not a sha256 content address");
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  private async ensureDir(dir: string): Promise<void> {
    if (this.madeDirs.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.madeDirs.add(dir);
  }

  stagedPath(file: StagedFile): string {
    return path.join(this.staging, file.stagingId);
  }

  async stage(source: Readable): Promise<StagedFile> {
    // Until copyToFile watches the source, an error of it (a client hanging up while the staging
    // folder is made) must not go unheard: an 'error' event without a listener would throw out of
    // the process. The error stays on the stream (errored), and copyToFile's finished() reports it.
    const unheard = () => undefined;
    source.on("error", unheard);
    try {
      await this.ensureDir(this.staging);
    } finally {
      source.off("error", unheard);
    }
    const stagingId = randomUUID();
    const target = path.join(this.staging, stagingId);
    const hash = createHash("sha256");
    let size = 0;
    let head = Buffer.alloc(0);
    let tail: Buffer = Buffer.alloc(0);
    const inspect = (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
      if (head.length < EDGE) head = Buffer.concat([head, chunk.subarray(0, EDGE - head.length)]);
      // Last EDGE bytes seen, without copying whole chunks (a view; copied once at the end).
      if (chunk.length >= EDGE) tail = chunk.subarray(chunk.length - EDGE);
      else {
        tail = Buffer.concat([tail, chunk]);
        if (tail.length > EDGE) tail = tail.subarray(tail.length - EDGE);
      }
    };
    try {
      await copyToFile(source, inspect, target);
    } catch (err) {
      // The folder may have been removed under us: the next upload recreates it.
      if ((err as NodeJS.ErrnoException).code === "ENOENT") this.madeDirs.delete(this.staging);
      await rm(target, { force: true });
      throw err;
    }
    return { stagingId, sha256: hash.digest("hex"), size, head, tail: Buffer.from(tail) };
  }

  async commit(file: StagedFile): Promise<string> {
    const from = path.join(this.staging, file.stagingId);
    const to = this.pathOf(file.sha256);
    const dir = path.dirname(to);
    // No existence check: a file already at this address has these very bytes, and rename replaces
    // it atomically (readers never see a partial file; one open on the old inode keeps reading it).
    // The folder is made once per process (a folder not yet known here is most often a new one: a
    // failed rename first cost an error object and a thread-pool hop more, bench/README.md); a
    // folder removed under us is made again when the rename says it is missing.
    await this.ensureDir(dir);
    // Synchronous: a rename within one folder tree makes no inode (15 us of kernel CPU on the bench
    // machine, where the thread pool's hop cost more than the call).
    try {
      renameSync(from, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      this.madeDirs.delete(dir);
      await this.ensureDir(dir);
      renameSync(from, to);
    }
    return file.sha256;
  }

  async discard(file: StagedFile): Promise<void> {
    await rm(path.join(this.staging, file.stagingId), { force: true });
  }

  async put(content: Buffer): Promise<string> {
    const sha256 = createHash("sha256").update(content).digest("hex");
    if (await this.exists(sha256)) return sha256;
    const to = this.pathOf(sha256);
    await mkdir(path.dirname(to), { recursive: true });
    await mkdir(this.staging, { recursive: true });
    const tmp = path.join(this.staging, randomUUID());
    await writeFile(tmp, content);
    await rename(tmp, to);
    return sha256;
  }

  read(sha256: string): Readable {
    return createReadStream(this.pathOf(sha256));
  }

  readAll(sha256: string): Promise<Buffer> {
    return readFile(this.pathOf(sha256));
  }

  // A local stat is a metadata read of microseconds: done synchronously it cost 3-5 us of CPU, through
  // the thread pool 40-50 us (a hop there and back; 10,000 calls on the bench machine), and the
  // creation job checks every file of a case file. No error object for a missing file either.
  async exists(sha256: string): Promise<boolean> {
    return statSync(this.pathOf(sha256), { throwIfNoEntry: false }) !== undefined;
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }
}

/**
 * Copies `source` into a new file at `target`, handing every chunk to `inspect` first; resolves once
 * the file is written and closed. Chunks are held until the source ends, then the file is opened
 * through the thread pool and written and closed in synchronous calls, unless they outgrow
 * SYNC_WRITE_BYTES: then the held ones and the rest stream through writeThrough. A source that fails
 * or ends early fails the copy.
 */
function copyToFile(source: Readable, inspect: (chunk: Buffer) => void, target: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const held: Buffer[] = [];
    let heldBytes = 0;
    const onData = (chunk: Buffer) => {
      inspect(chunk);
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes <= SYNC_WRITE_BYTES) return;
      // Inside this 'data' event: listeners added now get the next chunk, not this one (held).
      source.off("data", onData);
      stopWatching();
      writeThrough(source, inspect, target, held).then(resolve, reject);
    };
    const stopWatching = finished(source, (err) => {
      source.off("data", onData);
      stopWatching();
      if (err) return reject(err);
      open(target, "w", (openErr, fd) => {
        if (openErr) return reject(openErr);
        try {
          writeFileSync(fd, held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held, heldBytes));
          closeSync(fd);
          resolve();
        } catch (writeErr) {
          closeSync(fd);
          reject(writeErr);
        }
      });
    });
    source.on("data", onData);
  });
}

/**
 * Copies `source` into a new file at `target` (after `written`, chunks already inspected), handing
 * every chunk to `inspect` first; resolves once the file is written and closed. Not stream.pipeline: it aborts an AbortController when it ends,
 * which builds a DOMException (a stack trace) per file, ~1.4% of the gateway's CPU per create
 * (bench/README.md). Backpressure is pipe()'s; a source that fails or ends early fails the copy and
 * closes the file (the caller removes it).
 */
function writeThrough(source: Readable, inspect: (chunk: Buffer) => void, target: string, written: readonly Buffer[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const out = createWriteStream(target);
    for (const chunk of written) out.write(chunk);
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      source.unpipe(out);
      out.destroy();
      // Wait for the file to be closed, so the caller's rm does not race its descriptor.
      finished(out, () => reject(err));
    };
    source.on("data", inspect);
    finished(source, (err) => {
      if (err) fail(err);
    });
    finished(out, (err) => {
      if (err) return fail(err);
      if (settled) return;
      settled = true;
      resolve();
    });
    source.pipe(out);
  });
}
