import { createHash, randomBytes, webcrypto } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

/** DN parts this platform writes; enough for a seal, a development CA and a test TSA. */
export interface DistinguishedName {
  commonName: string;
  organization?: string;
  country?: string;
}

const OID = {
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  country: "2.5.4.6",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  extKeyUsage: "2.5.29.37",
  subjectKeyIdentifier: "2.5.29.14",
} as const;

/** Extended key usages by name (RFC 5280 / 3161 / the Adobe-approved document-signing OID). */
export const EXT_KEY_USAGE = {
  timeStamping: "1.3.6.1.5.5.7.3.8",
  documentSigning: "1.3.6.1.4.1.311.10.3.12",
  emailProtection: "1.3.6.1.5.5.7.3.4",
} as const;

/**
 * One attribute per RDN (C, O, CN): pkijs would put them all into one multi-valued RDN, which
 * tools then print as "O = ... + CN = ...". Building the DER first and parsing it keeps the order.
 */
function toRdn(dn: DistinguishedName): pkijs.RelativeDistinguishedNames {
  const parts: asn1js.Set[] = [];
  const add = (type: string, value: asn1js.BaseStringBlock) =>
    parts.push(new asn1js.Set({ value: [new pkijs.AttributeTypeAndValue({ type, value }).toSchema()] }));
  if (dn.country) add(OID.country, new asn1js.PrintableString({ value: dn.country }));
  if (dn.organization) add(OID.organization, new asn1js.Utf8String({ value: dn.organization }));
  add(OID.commonName, new asn1js.Utf8String({ value: dn.commonName }));
  const der = new asn1js.Sequence({ value: parts }).toBER(false);
  return new pkijs.RelativeDistinguishedNames({ schema: asn1js.fromBER(der).result });
}

export interface KeyPair {
  privateKey: webcrypto.CryptoKey;
  publicKey: webcrypto.CryptoKey;
}

/** RSA 3072 / SHA-256: accepted by every PAdES validator and by the EU's algorithm catalogue past 2030. */
export async function generateRsaKeyPair(bits = 3072): Promise<KeyPair> {
  const pair = await webcrypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: bits, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  );
  return pair as KeyPair;
}

export interface IssueOptions {
  subject: DistinguishedName;
  subjectKey: webcrypto.CryptoKey;
  /** Omit for a self-signed certificate (a CA root). */
  issuer?: pkijs.Certificate;
  issuerKey: webcrypto.CryptoKey;
  validFrom: Date;
  validTo: Date;
  ca: boolean;
  extKeyUsage?: readonly string[];
  /** RFC 3161 requires the timeStamping EKU to be the only one and critical. */
  extKeyUsageCritical?: boolean;
}

function keyUsageBits(ca: boolean): asn1js.BitString {
  // digitalSignature (bit 0) + nonRepudiation (bit 1) for a seal; keyCertSign (5) + cRLSign (6) for a CA.
  const byte = ca ? 0x06 : 0xc0;
  return new asn1js.BitString({ valueHex: new Uint8Array([byte]).buffer, unusedBits: ca ? 1 : 6 });
}

/** An X.509 v3 certificate signed with SHA-256; serial numbers are 16 random bytes (RFC 5280's 20-byte cap). */
export async function issueCertificate(opts: IssueOptions): Promise<pkijs.Certificate> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = randomBytes(16);
  // A positive INTEGER in minimal DER: top bit clear, and a first byte never zero (a leading 0x00
  // before a byte below 0x80 is non-minimal, which OpenSSL refuses: one certificate in 128 failed).
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  cert.subject = toRdn(opts.subject);
  cert.issuer = opts.issuer ? opts.issuer.subject : toRdn(opts.subject);
  cert.notBefore.value = opts.validFrom;
  cert.notAfter.value = opts.validTo;
  await cert.subjectPublicKeyInfo.importKey(opts.subjectKey);

  const spki = new Uint8Array(cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
  const extensions: pkijs.Extension[] = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: opts.ca }).toSchema().toBER(false),
    }),
    new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: keyUsageBits(opts.ca).toBER(false) }),
    new pkijs.Extension({
      extnID: OID.subjectKeyIdentifier,
      critical: false,
      extnValue: new asn1js.OctetString({ valueHex: createHash("sha1").update(spki).digest() }).toBER(false),
    }),
  ];
  if (opts.extKeyUsage && opts.extKeyUsage.length > 0) {
    extensions.push(
      new pkijs.Extension({
        extnID: OID.extKeyUsage,
        critical: opts.extKeyUsageCritical ?? false,
        extnValue: new pkijs.ExtKeyUsage({ keyPurposes: [...opts.extKeyUsage] }).toSchema().toBER(false),
      }),
    );
  }
  cert.extensions = extensions;
  await cert.sign(opts.issuerKey, "SHA-256");
  return cert;
}

export const certificateDer = (cert: pkijs.Certificate): Uint8Array => new Uint8Array(cert.toSchema().toBER(false));

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  const asn1 = asn1js.fromBER(der);
  if (asn1.offset === -1) throw new Error("not a DER certificate");
  return new pkijs.Certificate({ schema: asn1.result });
}

/** Lowercase hex SHA-256 of the DER certificate: what the audit trail and the verification show. */
export const certificateFingerprint = (der: Uint8Array): string => createHash("sha256").update(der).digest("hex");

const NAME_LABELS: Readonly<Record<string, string>> = {
  [OID.commonName]: "CN",
  [OID.organization]: "O",
  [OID.country]: "C",
  "2.5.4.11": "OU",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
};

/** "CN=..., O=..., C=..." in the certificate's own order, most significant first as people read it. */
export function formatName(name: pkijs.RelativeDistinguishedNames): string {
  return [...name.typesAndValues]
    .reverse()
    .map((tv) => `${NAME_LABELS[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value)}`)
    .join(", ");
}

export interface CertificateSummary {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  sha256Fingerprint: string;
}

export function summarizeCertificate(der: Uint8Array): CertificateSummary {
  const cert = parseCertificate(der);
  return {
    subject: formatName(cert.subject),
    issuer: formatName(cert.issuer),
    serialNumber: Buffer.from(cert.serialNumber.valueBlock.valueHexView).toString("hex"),
    notBefore: cert.notBefore.value.toISOString(),
    notAfter: cert.notAfter.value.toISOString(),
    sha256Fingerprint: certificateFingerprint(der),
  };
}
