import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export function sha256Hex(value: string | Buffer): string {
  return createHash("sha256").update(value).digest("hex");
}

/**
 * A signing link's token: 32 random bytes (base64url), unguessable. Only its sha256 is looked up;
 * the token itself lives in the link (and encrypted in SigningLink.tokenEnc for the notifier).
 */
export function newSigningToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: sha256Hex(token) };
}

// AES-256-GCM with a random IV; the stored form is `v1.<iv>.<tag>.<ciphertext>` in base64url so the
// key can be rotated later by adding a version.
export function encryptSecret(plain: string, keyHex: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(keyHex, "hex"), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function decryptSecret(stored: string, keyHex: string): string {
  const [version, iv, tag, data] = stored.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("unreadable encrypted secret");
  const decipher = createDecipheriv("aes-256-gcm", Buffer.from(keyHex, "hex"), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

/**
 * The id in a signing-request email's open-tracking link: the signer id plus an HMAC, so the gateway
 * can trust it without storing anything and nobody can forge opens for other signers.
 */
export function trackingId(signerId: number, keyHex: string): string {
  const mac = createHmac("sha256", Buffer.from(keyHex, "hex")).update(`open:${signerId}`).digest("base64url").slice(0, 22);
  return `${signerId}.${mac}`;
}

export function parseTrackingId(id: string, keyHex: string): number | null {
  const m = /^(\d{1,10})\.([A-Za-z0-9_-]{22})$/.exec(id);
  if (!m?.[1]) return null;
  const expected = Buffer.from(trackingId(Number(m[1]), keyHex));
  const given = Buffer.from(id);
  return expected.length === given.length && timingSafeEqual(expected, given) ? Number(m[1]) : null;
}
