import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/* The files the PdfInspector suites hand to the inspector processes, in a folder of each suite's own. */

export const MiB = 2 ** 20;
export const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const dir = mkdtempSync(path.join(os.tmpdir(), "pdf-bounds-"));
let n = 0;

/** The content written to a file of its own; its path. */
export const file = (content: Buffer) => {
  const p = path.join(dir, `f${n++}.pdf`);
  writeFileSync(p, content);
  return p;
};

/** A file whose read never ends (a FIFO nobody writes to): the inspection hangs until the time-out, deterministically. */
export const hangingFile = () => {
  const p = path.join(dir, `hang${n++}.pdf`);
  execFileSync("mkfifo", [p]);
  return p;
};
