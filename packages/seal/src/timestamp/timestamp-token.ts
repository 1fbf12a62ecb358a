import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { checkFirstSigner } from "../verify/cms-signer";

const OID_SIGNED_DATA = "1.2.840.113549.1.7.2";
const OID_TST_INFO = "1.2.840.113549.1.9.16.1.4";
const OID_SHA256 = "2.16.840.1.101.3.4.2.1";

/** What an RFC 3161 token says, and whether its own signature holds. */
export interface TimestampTokenInfo {
  time: Date;
  /** SHA-256 digest the authority stamped (null when it used another algorithm). */
  sha256Imprint: Uint8Array | null;
  /** DER certificate of the authority when the token carries it (requested with certReq). */
  authorityCertificate: Uint8Array | null;
  signatureValid: boolean;
}

/** Parses a DER TimeStampToken (a CMS SignedData around TSTInfo) and checks its signature; throws when it is not one. */
export async function readTimestampToken(token: Uint8Array): Promise<TimestampTokenInfo> {
  const asn1 = asn1js.fromBER(token);
  if (asn1.offset === -1) throw new Error("the timestamp token is not DER");
  const contentInfo = new pkijs.ContentInfo({ schema: asn1.result });
  if (contentInfo.contentType !== OID_SIGNED_DATA) throw new Error("the timestamp token is not CMS SignedData");
  const signed = new pkijs.SignedData({ schema: contentInfo.content });
  const eContent = signed.encapContentInfo.eContent;
  if (signed.encapContentInfo.eContentType !== OID_TST_INFO || !eContent) throw new Error("the timestamp token holds no TSTInfo");
  const tst = pkijs.TSTInfo.fromBER(eContent.getValue());
  // The token signs TSTInfo (its eContent); whether TSTInfo stamps the right digest is the caller's check.
  const signer = checkFirstSigner(signed, new Uint8Array(eContent.getValue()));
  const imprint = tst.messageImprint;
  return {
    time: tst.genTime,
    sha256Imprint: imprint.hashAlgorithm.algorithmId === OID_SHA256 ? new Uint8Array(imprint.hashedMessage.valueBlock.valueHexView) : null,
    authorityCertificate: signer?.certificate ?? null,
    signatureValid: signer ? signer.signatureValid && signer.digestMatches : false,
  };
}
