import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { readTimestampToken } from "../timestamp/timestamp-token";
import { attributeValue, checkFirstSigner, equalBytes, sha256 } from "./cms-signer";
import { signedBytes, type EmbeddedSignature } from "./find-signatures";

const OID = {
  signedData: "1.2.840.113549.1.7.2",
  signingTime: "1.2.840.113549.1.9.5",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  timestampToken: "1.2.840.113549.1.9.16.2.14",
} as const;

export interface TimestampCheck {
  time: Date;
  authorityCertificate: Uint8Array | null;
  /** The authority's signature holds and it stamped this signature's value. */
  valid: boolean;
}

/** What one embedded signature proves about the file it sits in. */
export interface SignatureCheck {
  byteRange: EmbeddedSignature["byteRange"];
  /** The signed ranges start at byte 0 and end at the file's last byte, around the /Contents gap only. */
  coversWholeFile: boolean;
  /** The SHA-256 of the signed ranges equals the signed messageDigest: not one covered byte changed. */
  digestMatches: boolean;
  /** The signature over the signed attributes verifies with the signer certificate in the CMS. */
  signatureValid: boolean;
  /** signing-certificate-v2 is present and names the signer certificate (PAdES / CAdES-BES). */
  signingCertificateV2: boolean;
  signerCertificate: Uint8Array | null;
  signingTime: Date | null;
  timestamp: TimestampCheck | null;
}

function checkSigningCertificateV2(value: asn1js.AsnType | null, certDer: Uint8Array): boolean {
  if (!(value instanceof asn1js.Sequence)) return false;
  const certs = value.valueBlock.value[0];
  const first = certs instanceof asn1js.Sequence ? certs.valueBlock.value[0] : undefined;
  if (!(first instanceof asn1js.Sequence)) return false;
  const parts = first.valueBlock.value;
  // hashAlgorithm is omitted when it is the default, SHA-256; only SHA-256 is accepted here.
  const hashPart = parts[0] instanceof asn1js.OctetString ? parts[0] : undefined;
  return hashPart !== undefined && equalBytes(new Uint8Array(hashPart.valueBlock.valueHexView), sha256(certDer));
}

/** Checks one signature cryptographically; trust in its certificate is the caller's question. */
export async function checkSignature(file: Uint8Array, sig: EmbeddedSignature): Promise<SignatureCheck> {
  const [start, firstLength, gapEnd, secondLength] = sig.byteRange;
  const result: SignatureCheck = {
    byteRange: sig.byteRange,
    coversWholeFile: start === 0 && gapEnd > firstLength && gapEnd + secondLength === file.length,
    digestMatches: false,
    signatureValid: false,
    signingCertificateV2: false,
    signerCertificate: null,
    signingTime: null,
    timestamp: null,
  };
  const asn1 = asn1js.fromBER(sig.cms);
  if (asn1.offset === -1) return result;
  let signed: pkijs.SignedData;
  try {
    const contentInfo = new pkijs.ContentInfo({ schema: asn1.result });
    if (contentInfo.contentType !== OID.signedData) return result;
    signed = new pkijs.SignedData({ schema: contentInfo.content });
  } catch {
    return result;
  }
  const signer = checkFirstSigner(signed, signedBytes(file, sig.byteRange));
  if (!signer) return result;
  const { info, certificate, signatureValue } = signer;
  result.signerCertificate = certificate;
  result.digestMatches = signer.digestMatches;
  result.signatureValid = signer.signatureValid;
  const time = attributeValue(info.signedAttrs, OID.signingTime);
  if (time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime) result.signingTime = time.toDate();
  result.signingCertificateV2 = checkSigningCertificateV2(attributeValue(info.signedAttrs, OID.signingCertificateV2), certificate);

  const token = attributeValue(info.unsignedAttrs, OID.timestampToken);
  if (token) {
    try {
      const ts = await readTimestampToken(new Uint8Array(token.toBER(false)));
      const imprintOk = ts.sha256Imprint !== null && equalBytes(ts.sha256Imprint, sha256(signatureValue));
      result.timestamp = { time: ts.time, authorityCertificate: ts.authorityCertificate, valid: ts.signatureValid && imprintOk };
    } catch {
      result.timestamp = null;
    }
  }
  return result;
}
