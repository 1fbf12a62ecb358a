import { X509Certificate, createHash, verify } from "node:crypto";
import { readFile } from "node:fs/promises";
import { LocalSealKey } from "./local-seal-key";
import { readP12 } from "./pki/p12";
import type { SealKey } from "./seal-key";

/** Reads a P12 seal and proves, with one signature, that its key belongs to its first certificate. */
export async function loadP12SealKey(p12Path: string, password: string): Promise<SealKey> {
  const description = `P12 file ${p12Path}`;
  const bytes = await readFile(p12Path).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`${description}: cannot read it (${err.code ?? err.message})`);
  });
  const contents = await readP12(bytes, password).catch((err: Error) => {
    throw new Error(`${description}: ${err.message}`);
  });
  const [first, ...rest] = contents.certificates;
  const key = new LocalSealKey(contents.privateKeyPkcs8, first!, [], description);
  // A P12 may list its certificates in any order: the seal's is the one whose public key matches.
  const probe = Buffer.from("seal key check");
  const signature = await key.signDigest(createHash("sha256").update(probe).digest());
  const matching = contents.certificates.find((der) => verify("sha256", probe, new X509Certificate(der).publicKey, signature));
  if (!matching) throw new Error(`${description}: no certificate in it matches its private key`);
  const chain = [first!, ...rest].filter((c) => c !== matching);
  return new LocalSealKey(contents.privateKeyPkcs8, matching, orderChain(matching, chain), description);
}

/** Issuer first, then its issuer, ...: the order CMS validators walk; certificates off the path are dropped. */
function orderChain(leaf: Uint8Array, others: readonly Uint8Array[]): Uint8Array[] {
  const ordered: Uint8Array[] = [];
  let current = new X509Certificate(leaf);
  const pool = others.map((der) => ({ der, x509: new X509Certificate(der) }));
  for (;;) {
    if (current.issuer === current.subject) break;
    const next = pool.find((c) => !ordered.includes(c.der) && current.checkIssued(c.x509));
    if (!next) break;
    ordered.push(next.der);
    current = next.x509;
  }
  return ordered;
}
