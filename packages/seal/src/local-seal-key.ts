import { constants, createPrivateKey, privateEncrypt, type KeyObject } from "node:crypto";
import type { SealKey } from "./seal-key";

// DER prefix of DigestInfo { sha256, NULL } (RFC 8017, 9.2 note 1): PKCS#1 v1.5 signs DigestInfo || digest.
const SHA256_DIGEST_INFO = Buffer.from("3031300d060960864801650304020105000420", "hex");

/**
 * A seal key held in this process (read from a P12 file). It signs a precomputed digest exactly as an
 * HSM's CKM_RSA_PKCS mechanism does: RSA private operation over DigestInfo, PKCS#1 v1.5 padding.
 */
export class LocalSealKey implements SealKey {
  readonly keyType = "RSA" as const;
  private readonly key: KeyObject;

  constructor(
    privateKeyPkcs8: Uint8Array,
    readonly certificate: Uint8Array,
    readonly chain: readonly Uint8Array[],
    readonly description: string,
  ) {
    this.key = createPrivateKey({ key: Buffer.from(privateKeyPkcs8), format: "der", type: "pkcs8" });
    if (this.key.asymmetricKeyType !== "rsa") {
      throw new Error(`${description}: the seal key must be an RSA key (found ${this.key.asymmetricKeyType ?? "unknown"})`);
    }
  }

  async signDigest(digest: Uint8Array): Promise<Uint8Array> {
    if (digest.length !== 32) throw new Error(`a SHA-256 digest has 32 bytes, not ${digest.length}`);
    return new Uint8Array(privateEncrypt({ key: this.key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, digest])));
  }
}
