import { webcrypto } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { certificateDer, issueCertificate } from "../src/pki/certificates";
import { DEVELOPMENT_SEAL_PASSWORD, createDevelopmentSealP12 } from "../src/pki/development-seal";
import { P12Error, STRONG_P12, readP12, writeP12 } from "../src/pki/p12";

/** The rounds of the MAC's key derivation, as written in the file (macData.iterations). */
function macRounds(p12: Uint8Array): number | undefined {
  return new pkijs.PFX({ schema: asn1js.fromBER(p12).result }).macData?.iterations;
}

/** The rounds of the key's PBKDF2, as written in the file: the shrouded key bag's PBES2 parameters. */
function keyRounds(p12: Uint8Array): number {
  const pfx = new pkijs.PFX({ schema: asn1js.fromBER(p12).result });
  const safe = new pkijs.AuthenticatedSafe({ schema: asn1js.fromBER((pfx.authSafe.content as asn1js.OctetString).getValue()).result });
  const contents = new pkijs.SafeContents({ schema: asn1js.fromBER((safe.safeContents[0]!.content as asn1js.OctetString).getValue()).result });
  const bag = contents.safeBags[0]!.bagValue as pkijs.PKCS8ShroudedKeyBag;
  const pbes2 = new pkijs.PBES2Params({ schema: bag.encryptionAlgorithm.algorithmParams });
  const pbkdf2 = new pkijs.PBKDF2Params({ schema: pbes2.keyDerivationFunc.algorithmParams });
  return pbkdf2.iterationCount;
}

async function sealFile(protection?: { iterations: number }): Promise<{ p12: Uint8Array; certificate: Uint8Array }> {
  const keys = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const cert = await issueCertificate({
    subject: { commonName: "P12 test" },
    subjectKey: keys.publicKey,
    issuerKey: keys.privateKey,
    validFrom: new Date("2026-01-01T00:00:00Z"),
    validTo: new Date("2027-01-01T00:00:00Z"),
    ca: true,
  });
  return { p12: await writeP12(keys.privateKey, [cert], "secret", protection), certificate: certificateDer(cert) };
}

describe("P12 files", () => {
  it("are written with 100,000 rounds for the key and the MAC unless told otherwise, and read back whole", async () => {
    const { p12, certificate } = await sealFile();
    expect(STRONG_P12.iterations).toBe(100_000);
    expect(macRounds(p12)).toBe(100_000);
    expect(keyRounds(p12)).toBe(100_000);
    const read = await readP12(p12, "secret");
    expect(read.certificates).toEqual([certificate]);
    expect(read.privateKeyPkcs8.length).toBeGreaterThan(0);
  });

  it("refuses a wrong password by the MAC, whatever the rounds", async () => {
    const { p12 } = await sealFile({ iterations: 2048 });
    await expect(readP12(p12, "wrong")).rejects.toThrow(P12Error);
    await expect(readP12(p12, "wrong")).rejects.toThrow(/wrong password or damaged file/);
  });

  it("the development seal, whose password is published, uses OpenSSL 3's 2,048 rounds: every worker start reads it", async () => {
    const p12 = await createDevelopmentSealP12(DEVELOPMENT_SEAL_PASSWORD);
    expect(macRounds(p12)).toBe(2048);
    expect(keyRounds(p12)).toBe(2048);
    const read = await readP12(p12, DEVELOPMENT_SEAL_PASSWORD);
    expect(read.certificates).toHaveLength(2);
  });
});
