import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/*
 * poppler-utils as the independent oracle for sealed PDFs: `pdfsig` (NSS) judges the signature,
 * `pdftotext` reads what the audit trail really shows. `.ci/run` installs them when absent.
 */

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== "number") return reject(new Error(`${cmd} could not run (${err.message}); install poppler-utils`));
      resolve({ code: typeof err?.code === "number" ? err.code : 0, stdout, stderr });
    });
  });
}

async function withFile<T>(bytes: Uint8Array, use: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "esign-pdf-"));
  const file = path.join(dir, "doc.pdf");
  writeFileSync(file, bytes);
  try {
    return await use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** All text of the PDF, pages in order, as poppler extracts it. */
export const pdfText = (bytes: Uint8Array, pages?: { first: number; last?: number }): Promise<string> =>
  withFile(bytes, async (file) => {
    const range = pages ? ["-f", String(pages.first), ...(pages.last ? ["-l", String(pages.last)] : [])] : [];
    const out = await run("pdftotext", ["-enc", "UTF-8", ...range, file, "-"]);
    if (out.code !== 0) throw new Error(`pdftotext failed: ${out.stderr}`);
    return out.stdout;
  });

export interface PdfsigSignature {
  subFilter: string | null;
  hashAlgorithm: string | null;
  totalDocumentSigned: boolean;
  validation: string | null;
  signerCommonName: string | null;
}

/** `pdfsig` on the bytes: one entry per signature, and the raw output for failure messages. */
export const pdfsig = (bytes: Uint8Array): Promise<{ signatures: PdfsigSignature[]; output: string }> =>
  withFile(bytes, async (file) => {
    const out = await run("pdfsig", [file]);
    const output = out.stdout + out.stderr;
    const blocks = output.split(/^Signature #\d+:$/m).slice(1);
    const field = (block: string, name: string) => block.match(new RegExp(`- ${name}: (.*)$`, "m"))?.[1]?.trim() ?? null;
    return {
      output,
      signatures: blocks.map((b) => ({
        subFilter: field(b, "Signature Type"),
        hashAlgorithm: field(b, "Signing Hash Algorithm"),
        totalDocumentSigned: /- Total document signed$/m.test(b),
        validation: field(b, "Signature Validation"),
        signerCommonName: field(b, "Signer Certificate Common Name"),
      })),
    };
  });

/** The number of pages poppler sees. */
export const pdfPageCount = (bytes: Uint8Array): Promise<number> =>
  withFile(bytes, async (file) => {
    const out = await run("pdfinfo", [file]);
    const pages = out.stdout.match(/^Pages:\s+(\d+)/m)?.[1];
    if (!pages) throw new Error(`pdfinfo failed: ${out.stdout}${out.stderr}`);
    return Number(pages);
  });
