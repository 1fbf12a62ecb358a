import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Db } from "@esign/db";
import { inspectSeal, verifyForPublic } from "@esign/seal";

/**
 * `pnpm cli verify FILE`: the public verdict (sealed by this platform? changed since?) plus the seal's
 * technical report, for an operator holding a file. Platform seal certificates come from the
 * database this CLI is configured for, as for the gateway's POST /verify.
 */
export async function verifyFile(db: Db, file: string) {
  const bytes = await readFile(file).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${file}: ${err.code ?? err.message}`);
  });
  if (bytes.subarray(0, 1024).indexOf("%PDF-") < 0) throw new Error(`${file} is not a PDF`);
  const verdict = await verifyForPublic(bytes, async (sha256) => (await db.sealCertificate.count({ where: { sha256 } })) > 0);
  const { report } = await inspectSeal(bytes);
  return { file, sha256: createHash("sha256").update(bytes).digest("hex"), ...verdict, seal: report };
}
