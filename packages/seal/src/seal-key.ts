import { createHash } from "node:crypto";
import type { DigestAlgorithm, Signer } from "@libpdf/core";

/**
 * The platform's seal key, wherever it lives. Finalization only ever hands it the SHA-256 digest of
 * the CMS signed attributes, so a key in a cloud KMS or an HSM (which sign digests remotely and never
 * release the key) implements this as well as a local P12 file does.
 */
export interface SealKey {
  /** DER X.509 certificate of the seal. */
  readonly certificate: Uint8Array;
  /** DER certificates from the seal's issuer up to the root, embedded so validators can build the chain. */
  readonly chain: readonly Uint8Array[];
  readonly keyType: "RSA";
  /** A human-readable name for logs and errors ("P12 file /etc/seal.p12", "KMS key ..."). */
  readonly description: string;
  /** PKCS#1 v1.5 signature over a SHA-256 digest (32 bytes). */
  signDigest(digest: Uint8Array): Promise<Uint8Array>;
}

/** The bridge to LibPDF's signer: hash the signed attributes here, let the key sign the digest. */
export function libPdfSigner(key: SealKey): Signer {
  return {
    certificate: key.certificate,
    certificateChain: [...key.chain],
    keyType: key.keyType,
    signatureAlgorithm: "RSASSA-PKCS1-v1_5",
    async sign(data: Uint8Array, algorithm: DigestAlgorithm): Promise<Uint8Array> {
      if (algorithm !== "SHA-256") throw new Error(`the seal signs SHA-256 digests only, not ${algorithm}`);
      return key.signDigest(createHash("sha256").update(data).digest());
    },
  };
}
