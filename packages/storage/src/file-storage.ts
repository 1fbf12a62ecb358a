import type { Readable } from "node:stream";

/** A file received but not yet accepted: hashed while it streamed, never buffered whole. */
export interface StagedFile {
  stagingId: string;
  sha256: string;
  size: number;
  /** First and last bytes, kept for content checks (PDF header and trailer). */
  head: Buffer;
  tail: Buffer;
}

/**
 * Content-addressed file storage. Uploads are staged first and committed only once the whole request
 * is accepted, so a rejected request leaves nothing behind. An object store can implement the same.
 */
export interface FileStorage {
  stage(source: Readable): Promise<StagedFile>;
  commit(file: StagedFile): Promise<string>;
  discard(file: StagedFile): Promise<void>;
  /** Where a staged file can be read from disk (the PDF inspector's processes read it there). */
  stagedPath(file: StagedFile): string;
  put(content: Buffer): Promise<string>;
  read(sha256: string): Readable;
  readAll(sha256: string): Promise<Buffer>;
  exists(sha256: string): Promise<boolean>;
  /**
   * Deletes the file at this address (nothing when there is none). Content addressing shares a file
   * between every record naming the same bytes: the caller checks that no record names it any more.
   */
  remove(sha256: string): Promise<void>;
}
