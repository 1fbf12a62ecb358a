import { createCipheriv, randomBytes } from "node:crypto";
import { decryptSecret, encryptSecret, isEncrypted, isEncryptedWith, keyId, openStoredId } from "../src";

// The one cipher of stored secrets and national ids (issue 26): AES-256-GCM, the key named in the
// value so a rotation can keep reading the old one (ENCRYPTION_KEYS_PREVIOUS) and find what to rewrite.
const OLD = randomBytes(32).toString("hex");
const NEW = randomBytes(32).toString("hex");

/** The older form, `v1.<iv>.<tag>.<data>` without a key id, as encryptSecret wrote it before. */
function v1(plain: string, keyHex: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(keyHex, "hex"), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

describe("encryptSecret / decryptSecret", () => {
  it("writes v2 with the current key's id, and reads it back with that key wherever it stands in the keyring", () => {
    const stored = encryptSecret("0101901234", [NEW, OLD]);
    expect(stored.startsWith(`v2.${keyId(NEW)}.`)).toBe(true);
    expect(stored).not.toContain("0101901234");
    expect(decryptSecret(stored, NEW)).toBe("0101901234");
    expect(decryptSecret(stored, [OLD, NEW])).toBe("0101901234");
    expect(isEncryptedWith(stored, NEW)).toBe(true);
    expect(isEncryptedWith(stored, OLD)).toBe(false);
  });

  it("names a missing key instead of guessing, and refuses a changed value (authenticated)", () => {
    const stored = encryptSecret("0101901234", OLD);
    expect(() => decryptSecret(stored, NEW)).toThrow(`encrypted with key ${keyId(OLD)}, which is neither ENCRYPTION_KEY nor in ENCRYPTION_KEYS_PREVIOUS`);
    const parts = stored.split(".");
    const data = Buffer.from(parts[4]!, "base64url");
    data[0] = data[0]! ^ 1;
    expect(() => decryptSecret([...parts.slice(0, 4), data.toString("base64url")].join("."), OLD)).toThrow();
  });

  it("still reads the older v1 form under any key of the keyring", () => {
    const stored = v1("whsec_x", OLD);
    expect(decryptSecret(stored, [NEW, OLD])).toBe("whsec_x");
    expect(() => decryptSecret(stored, NEW)).toThrow("neither ENCRYPTION_KEY nor in ENCRYPTION_KEYS_PREVIOUS");
    expect(isEncrypted(stored)).toBe(true);
    expect(isEncryptedWith(stored, OLD)).toBe(false);
  });

  it("tells clear national ids from encrypted ones (the migration's left-overs are read as they are)", () => {
    for (const clear of ["0101901234", "010190-1234", "v2.abc", "19900101-1234"]) expect(isEncrypted(clear)).toBe(false);
    expect(openStoredId("0101901234", NEW)).toBe("0101901234");
    expect(openStoredId(encryptSecret("0101901234", NEW), NEW)).toBe("0101901234");
    expect(openStoredId(null, NEW)).toBeNull();
    expect(keyId(NEW)).toMatch(/^[0-9a-f]{8}$/);
    expect(keyId(NEW.toUpperCase())).toBe(keyId(NEW));
  });
});
