import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";
import { pooledRandomBytes } from "./random-pool";

export function sha256Hex(value: string | Buffer): string {
  return createHash("sha256").update(value).digest("hex");
}

/**
 * The keys that may read what was encrypted: the current ENCRYPTION_KEY first (every new value is
 * encrypted with it), then the keys it replaced (ENCRYPTION_KEYS_PREVIOUS), kept only until
 * `pnpm cli secrets reencrypt` has moved every stored value to the current key (docs/operating.md).
 * A single key (a string) is a keyring of one.
 */
export type Keyring = string | readonly string[];

const keysOf = (keys: Keyring): readonly string[] => (typeof keys === "string" ? [keys] : keys);

/** A key's public id: 8 hex characters of a hash of it, naming the key in a stored value without revealing it. */
export function keyId(keyHex: string): string {
  return materialOf(keyHex).id;
}

interface KeyMaterial {
  id: string;
  key: KeyObject;
}

// A key's id and its OpenSSL key object, made once per key: hashing the id and decoding the hex at
// every call was two thirds of an encryptSecret (46 against 15 us here, 4-5 calls per case file).
// A process holds a handful of keys (the current one and those it replaced); the bound is for tests.
const materials = new Map<string, KeyMaterial>();
const MAX_MATERIALS = 64;

function materialOf(keyHex: string): KeyMaterial {
  let m = materials.get(keyHex);
  if (!m) {
    m = {
      id: createHash("sha256").update("esign-key-id:").update(keyHex.toLowerCase()).digest("hex").slice(0, 8),
      key: createSecretKey(Buffer.from(keyHex, "hex")),
    };
    if (materials.size >= MAX_MATERIALS) materials.delete(materials.keys().next().value as string);
    materials.set(keyHex, m);
  }
  return m;
}

// AES-256-GCM (authenticated: a changed value fails to decrypt) with a random IV. The stored form is
// `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts), so a reader picks the key that wrote it and
// rotation can tell what still needs re-encrypting; `v1.<iv>.<tag>.<ciphertext>` (no key id) is the
// older form, still read by trying each key of the keyring.
export function encryptSecret(plain: string, keys: Keyring): string {
  const keyHex = keysOf(keys)[0];
  if (!keyHex) throw new Error("no encryption key");
  const { id, key } = materialOf(keyHex);
  const iv = pooledRandomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `v2.${id}.${iv.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}.${data.toString("base64url")}`;
}

function openWith(keyHex: string, iv: string, tag: string, data: string): string {
  const decipher = createDecipheriv("aes-256-gcm", materialOf(keyHex).key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

export function decryptSecret(stored: string, keys: Keyring): string {
  const parts = stored.split(".");
  if (parts[0] === "v2" && parts.length === 5) {
    const [, kid, iv = "", tag = "", data = ""] = parts;
    const keyHex = keysOf(keys).find((k) => keyId(k) === kid);
    if (!keyHex) throw new Error(`encrypted with key ${kid}, which is neither ENCRYPTION_KEY nor in ENCRYPTION_KEYS_PREVIOUS`);
    return openWith(keyHex, iv, tag, data);
  }
  if (parts[0] === "v1" && parts.length === 4) {
    const [, iv = "", tag = "", data = ""] = parts;
    for (const keyHex of keysOf(keys)) {
      try {
        return openWith(keyHex, iv, tag, data);
      } catch {
        // GCM's tag check: not this key, try the next one.
      }
    }
    throw new Error("encrypted with a key that is neither ENCRYPTION_KEY nor in ENCRYPTION_KEYS_PREVIOUS");
  }
  throw new Error("unreadable encrypted secret");
}

/** Whether a stored value is in one of encryptSecret's forms (a clear value never is). */
export function isEncrypted(stored: string): boolean {
  return /^v1(\.[A-Za-z0-9_-]*){3}$/.test(stored) || /^v2\.[0-9a-f]{8}(\.[A-Za-z0-9_-]*){3}$/.test(stored);
}

/**
 * A national id column (Signer.cprEnc, socialSecurityNumberEnc) in clear, for the readers that need
 * it. A value stored before those columns were encrypted, not yet reached by the migrate step, is
 * still clear: it is read as it is.
 */
export function openStoredId(stored: string | null, keys: Keyring): string | null {
  if (stored === null) return null;
  return isEncrypted(stored) ? decryptSecret(stored, keys) : stored;
}

/** Whether a stored value was encrypted with this key (else it is clear, older, or under a previous key). */
export function isEncryptedWith(stored: string, keyHex: string): boolean {
  return stored.startsWith(`v2.${keyId(keyHex)}.`) && isEncrypted(stored);
}

/**
 * The id in a signing-request email's open-tracking link: the signer id plus an HMAC, so the gateway
 * can trust it without storing anything and nobody can forge opens for other signers.
 */
export function trackingId(signerId: number, keyHex: string): string {
  const mac = createHmac("sha256", materialOf(keyHex).key).update(`open:${signerId}`).digest("base64url").slice(0, 22);
  return `${signerId}.${mac}`;
}

export function parseTrackingId(id: string, keyHex: string): number | null {
  const m = /^(\d{1,10})\.([A-Za-z0-9_-]{22})$/.exec(id);
  if (!m?.[1]) return null;
  const expected = Buffer.from(trackingId(Number(m[1]), keyHex));
  const given = Buffer.from(id);
  return expected.length === given.length && timingSafeEqual(expected, given) ? Number(m[1]) : null;
}

/**
 * A signing link's token: 32 random bytes (unguessable), base64url. Only its sha256 is looked up
 * (SigningLink.tokenHash); the token itself is kept encrypted (tokenEnc) for the mails that carry it.
 * Made by the casefile-worker's create and the gateway's "add a signer" alike.
 */
export function newSigningToken(): { token: string; tokenHash: string } {
  const token = pooledRandomBytes(32).toString("base64url");
  return { token, tokenHash: hashSigningToken(token) };
}

export function hashSigningToken(token: string): string {
  return sha256Hex(token);
}

export function signingLinkUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/sign/${token}`;
}
