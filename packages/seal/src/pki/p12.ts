import { webcrypto } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

const BAG = {
  keyBag: "1.2.840.113549.1.12.10.1.1",
  shroudedKeyBag: "1.2.840.113549.1.12.10.1.2",
  certBag: "1.2.840.113549.1.12.10.1.3",
} as const;

/** What a PKCS#12 file holds for sealing: one private key (PKCS#8 DER) and its certificates, signer first. */
export interface P12Contents {
  privateKeyPkcs8: Uint8Array;
  certificates: Uint8Array[];
}

export class P12Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = "P12Error";
  }
}

const passwordBytes = (password: string): ArrayBuffer => {
  const bytes = new TextEncoder().encode(password);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
};

/**
 * Reads a PKCS#12 file protected the way OpenSSL 3 writes it by default (PBES2 / AES, SHA-256 MAC).
 * The legacy RC2/3DES encodings are refused with a message that says how to re-export, rather than
 * carrying a second, weaker cipher stack for them.
 */
export async function readP12(bytes: Uint8Array, password: string): Promise<P12Contents> {
  const asn1 = asn1js.fromBER(bytes);
  if (asn1.offset === -1) throw new P12Error("not a PKCS#12 file (no DER structure)");
  const pw = passwordBytes(password);
  let pfx: pkijs.PFX;
  try {
    pfx = new pkijs.PFX({ schema: asn1.result });
    await pfx.parseInternalValues({ password: pw, checkIntegrity: true });
  } catch (err) {
    throw new P12Error(`cannot open the PKCS#12 file (wrong password or damaged file): ${(err as Error).message}`);
  }
  const safe = pfx.parsedValue?.authenticatedSafe;
  if (!safe) throw new P12Error("the PKCS#12 file has no authenticated safe");
  try {
    await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password: pw })) });
  } catch (err) {
    throw new P12Error(
      `cannot decrypt the PKCS#12 contents (${(err as Error).message}); legacy RC2/3DES files are not supported: re-export with ` +
        "`openssl pkcs12 -export` (OpenSSL 3 defaults to AES-256 and PBKDF2)",
    );
  }
  let privateKey: pkijs.PrivateKeyInfo | undefined;
  const certificates: Uint8Array[] = [];
  for (const entry of safe.parsedValue?.safeContents ?? []) {
    for (const bag of entry.value.safeBags) {
      if (bag.bagId === BAG.shroudedKeyBag) {
        privateKey = await decryptKeyBag(bag.bagValue as pkijs.PKCS8ShroudedKeyBag, pw);
      } else if (bag.bagId === BAG.keyBag) {
        privateKey = bag.bagValue as pkijs.PrivateKeyInfo;
      } else if (bag.bagId === BAG.certBag) {
        const certBag = bag.bagValue as pkijs.CertBag;
        if (certBag.parsedValue instanceof pkijs.Certificate) certificates.push(new Uint8Array(certBag.parsedValue.toSchema().toBER(false)));
      }
    }
  }
  if (!privateKey) throw new P12Error("the PKCS#12 file holds no private key");
  if (certificates.length === 0) throw new P12Error("the PKCS#12 file holds no certificate");
  return { privateKeyPkcs8: new Uint8Array(privateKey.toSchema().toBER(false)), certificates };
}

async function decryptKeyBag(bag: pkijs.PKCS8ShroudedKeyBag, password: ArrayBuffer): Promise<pkijs.PrivateKeyInfo> {
  try {
    const pkcs8 = await pkijs.getCrypto(true).decryptEncryptedContentInfo({
      encryptedContentInfo: new pkijs.EncryptedContentInfo({ contentEncryptionAlgorithm: bag.encryptionAlgorithm, encryptedContent: bag.encryptedData }),
      password,
    });
    return new pkijs.PrivateKeyInfo({ schema: asn1js.fromBER(pkcs8).result });
  } catch (err) {
    throw new P12Error(`cannot decrypt the private key of the PKCS#12 file: ${(err as Error).message}`);
  }
}

/**
 * How hard a P12's password is made to guess: the iterations of the key's PBKDF2 and of the MAC's
 * PKCS#12 key derivation. Reading pays both at every process start, and the MAC's derivation runs in
 * JavaScript (pkijs): at 100,000 iterations reading one took ~400 ms of CPU, most of a worker's start.
 */
export interface P12Protection {
  iterations: number;
}

/** For a password that protects something: a guess costs as much as 100,000 rounds of each derivation. */
export const STRONG_P12: P12Protection = { iterations: 100_000 };

/**
 * Writes key and certificates (signer first) as OpenSSL 3 does: PBES2 AES-256-CBC, PBKDF2 and MAC over
 * SHA-256, with `protection.iterations` for both (OpenSSL 3's own default is 2,048).
 */
export async function writeP12(
  privateKey: webcrypto.CryptoKey,
  certificates: readonly pkijs.Certificate[],
  password: string,
  protection: P12Protection = STRONG_P12,
): Promise<Uint8Array> {
  const pw = passwordBytes(password);
  const pkcs8 = await webcrypto.subtle.exportKey("pkcs8", privateKey);
  const keyInfo = new pkijs.PrivateKeyInfo({ schema: asn1js.fromBER(pkcs8).result });
  const keyBag = new pkijs.PKCS8ShroudedKeyBag({ parsedValue: keyInfo });
  await keyBag.makeInternalValues({
    password: pw,
    contentEncryptionAlgorithm: { name: "AES-CBC", length: 256 } as webcrypto.AesKeyGenParams,
    hmacHashAlgorithm: "SHA-256",
    iterationCount: protection.iterations,
  });
  const bags = [
    new pkijs.SafeBag({ bagId: BAG.shroudedKeyBag, bagValue: keyBag }),
    ...certificates.map((c) => new pkijs.SafeBag({ bagId: BAG.certBag, bagValue: new pkijs.CertBag({ parsedValue: c }) })),
  ];
  const pfx = new pkijs.PFX({
    parsedValue: {
      integrityMode: 0,
      authenticatedSafe: new pkijs.AuthenticatedSafe({
        parsedValue: { safeContents: [{ privacyMode: 0, value: new pkijs.SafeContents({ safeBags: bags }) }] },
      }),
    },
  });
  await pfx.parsedValue!.authenticatedSafe!.makeInternalValues({ safeContents: [{}] });
  await pfx.makeInternalValues({ password: pw, iterations: protection.iterations, pbkdf2HashAlgorithm: "SHA-256", hmacHashAlgorithm: "SHA-256" });
  return new Uint8Array(pfx.toSchema().toBER(false));
}
