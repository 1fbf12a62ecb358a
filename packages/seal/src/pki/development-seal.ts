import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { EXT_KEY_USAGE, generateRsaKeyPair, issueCertificate } from "./certificates";
import { writeP12 } from "./p12";

/** The development seal's fixed password: the file never leaves a developer's `.data/` folder. */
export const DEVELOPMENT_SEAL_PASSWORD = "development-seal-not-for-production";
export const DEVELOPMENT_SEAL_FILE = "development-seal.p12";

const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * A local CA and a seal certificate it issued, in one P12 (seal key, seal certificate, CA certificate).
 * Nobody trusts this CA: the seal proves integrity, and validators say "issuer not trusted", which is
 * the truth for a development machine.
 */
export async function createDevelopmentSealP12(password: string, names = { organization: "E-Sign development" }): Promise<Uint8Array> {
  const now = Date.now();
  const validFrom = new Date(now - 3600_000);
  const caKeys = await generateRsaKeyPair();
  const ca = await issueCertificate({
    subject: { commonName: `${names.organization} local CA`, organization: names.organization },
    subjectKey: caKeys.publicKey,
    issuerKey: caKeys.privateKey,
    validFrom,
    validTo: new Date(now + 20 * YEAR_MS),
    ca: true,
  });
  const sealKeys = await generateRsaKeyPair();
  const seal = await issueCertificate({
    subject: { commonName: `${names.organization} seal`, organization: names.organization },
    subjectKey: sealKeys.publicKey,
    issuer: ca,
    issuerKey: caKeys.privateKey,
    validFrom,
    validTo: new Date(now + 10 * YEAR_MS),
    ca: false,
    extKeyUsage: [EXT_KEY_USAGE.documentSigning, EXT_KEY_USAGE.emailProtection],
  });
  // OpenSSL 3's default rounds, not STRONG_P12's: the development seal's password is published in this
  // file, so rounds protect nothing, and every casefile-worker start (some thirty-five per test run) reads it:
  // ~400 ms of CPU a read at 100,000 rounds.
  return writeP12(sealKeys.privateKey, [seal, ca], password, { iterations: 2048 });
}

/**
 * Development only: the seal under `dir`, created on first use and reused afterwards, so documents
 * sealed yesterday still verify today. Two services starting at once both may create one; the rename
 * makes the last writer win whole, and `readFile` after it sees one complete file.
 */
export async function ensureDevelopmentSeal(dir: string): Promise<{ path: string; password: string }> {
  const file = path.join(dir, DEVELOPMENT_SEAL_FILE);
  try {
    await readFile(file);
  } catch {
    await mkdir(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, await createDevelopmentSealP12(DEVELOPMENT_SEAL_PASSWORD), { mode: 0o600 });
    await rename(tmp, file);
  }
  return { path: file, password: DEVELOPMENT_SEAL_PASSWORD };
}
