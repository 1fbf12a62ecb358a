import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/** Files left in the storage's staging folder (absent folder = none). */
export function stagingEntries(storageDir: string): string[] {
  const staging = path.join(storageDir, ".staging");
  return existsSync(staging) ? readdirSync(staging) : [];
}

/** Whether the content-addressed store holds this exact content (`<root>/ab/cd/<sha256>`). */
export function isStored(storageDir: string, content: Buffer): boolean {
  const sha = createHash("sha256").update(content).digest("hex");
  return existsSync(path.join(storageDir, sha.slice(0, 2), sha.slice(2, 4), sha));
}

/** A storage folder of the test file's own, so parallel test files cannot muddle staging checks. */
export function ownStorageDir(name: string): string {
  const base = process.env.ESIGN_TEST_DIR;
  if (!base) throw new Error("ESIGN_TEST_DIR is not set: run through jest (global-setup)");
  return path.join(base, `files-${name}-${Math.random().toString(36).slice(2, 8)}`);
}

/** Staged uploads are removed asynchronously after the answer: wait briefly for that to settle. */
export async function waitForEmptyStaging(storageDir: string, timeoutMs = 3000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let left = stagingEntries(storageDir);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = stagingEntries(storageDir);
  }
  return left;
}

/**
 * A queue prefix of the test file's own, under the run's prefix (so global teardown still removes its
 * keys). A gateway with its own storage folder needs it: a worker of another test file, reading the
 * shared storage, must never pick up a job whose files live in this folder.
 */
export function ownQueuePrefix(name: string): string {
  const base = process.env.QUEUE_PREFIX;
  if (!base) throw new Error("QUEUE_PREFIX is not set: run through jest (global-setup)");
  return `${base}:${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}
