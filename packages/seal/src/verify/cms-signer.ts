import { X509Certificate, createHash, timingSafeEqual, verify } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { certificateDer } from "../pki/certificates";

const OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4";
const OID_SHA256 = "2.16.840.1.101.3.4.2.1";

export const sha256 = (data: Uint8Array): Buffer => createHash("sha256").update(data).digest();
export const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && timingSafeEqual(a, b);

export function attributeValue(attrs: pkijs.SignedAndUnsignedAttributes | undefined, oid: string): asn1js.AsnType | null {
  return attrs?.attributes.find((a) => a.type === oid)?.values[0] ?? null;
}

/** The first signer of a CMS SignedData, checked on its own terms (trust in the certificate is separate). */
export interface SignerCheck {
  info: pkijs.SignerInfo;
  certificate: Uint8Array;
  /** The signed messageDigest equals the SHA-256 of `content`. */
  digestMatches: boolean;
  /** The signature over the DER signed attributes verifies with the signer's certificate. */
  signatureValid: boolean;
  signatureValue: Uint8Array;
}

/**
 * Checks signer 0 of `signed` against `content` (the detached bytes, or the embedded eContent):
 * SHA-256 only, signed attributes required, as PAdES and RFC 3161 tokens have them. Written out
 * rather than pkijs's `verify`, which cannot tell a changed document from a broken signature.
 */
export function checkFirstSigner(signed: pkijs.SignedData, content: Uint8Array): SignerCheck | null {
  const info = signed.signerInfos[0];
  if (!info?.signedAttrs || info.digestAlgorithm.algorithmId !== OID_SHA256) return null;
  if (!(info.sid instanceof pkijs.IssuerAndSerialNumber)) return null;
  const sid = info.sid;
  const cert = (signed.certificates ?? []).find(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate && c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber),
  );
  if (!cert) return null;
  const certificate = certificateDer(cert);
  const digest = attributeValue(info.signedAttrs, OID_MESSAGE_DIGEST);
  const digestMatches = digest instanceof asn1js.OctetString && equalBytes(new Uint8Array(digest.valueBlock.valueHexView), sha256(content));
  // The signature is over the DER of the signed attributes as a SET (tag 0x31), not as [0] IMPLICIT.
  const attrsDer = new Uint8Array(info.signedAttrs.encodedValue.slice(0));
  attrsDer[0] = 0x31;
  const signatureValue = new Uint8Array(info.signature.valueBlock.valueHexView);
  let signatureValid = false;
  try {
    signatureValid = verify("sha256", attrsDer, new X509Certificate(certificate).publicKey, signatureValue);
  } catch {
    signatureValid = false;
  }
  return { info, certificate, digestMatches, signatureValid, signatureValue };
}
