import { certificateFingerprint, summarizeCertificate, type CertificateSummary } from "../pki/certificates";
import { decodeSignature, findSignatureRanges } from "./find-signatures";
import { checkSignature, type SignatureCheck } from "./verify-signature";

/** The full technical answer about a PDF's last signature: for the case file's owner and operators. */
export interface SealReport {
  signed: boolean;
  /** The signature holds and the signed bytes are unchanged. */
  signatureValid: boolean;
  coversWholeFile: boolean;
  signingCertificateV2: boolean;
  certificate: CertificateSummary | null;
  signingTime: string | null;
  timestamp: { time: string; authority: CertificateSummary | null; valid: boolean } | null;
  level: "B-B" | "B-T" | null;
  signatureCount: number;
}

const summarize = (der: Uint8Array | null): CertificateSummary | null => {
  if (!der) return null;
  try {
    return summarizeCertificate(der);
  } catch {
    return null;
  }
};

function toReport(check: SignatureCheck | null, count: number): SealReport {
  if (!check) {
    return {
      signed: false,
      signatureValid: false,
      coversWholeFile: false,
      signingCertificateV2: false,
      certificate: null,
      signingTime: null,
      timestamp: null,
      level: null,
      signatureCount: count,
    };
  }
  const valid = check.signatureValid && check.digestMatches;
  return {
    signed: true,
    signatureValid: valid,
    coversWholeFile: check.coversWholeFile,
    signingCertificateV2: check.signingCertificateV2,
    certificate: summarize(check.signerCertificate),
    signingTime: check.signingTime?.toISOString() ?? null,
    timestamp: check.timestamp
      ? { time: check.timestamp.time.toISOString(), authority: summarize(check.timestamp.authorityCertificate), valid: check.timestamp.valid }
      : null,
    level: check.timestamp?.valid ? "B-T" : "B-B",
    signatureCount: count,
  };
}

/**
 * Checks the signature that ends latest in the file (the seal is the last thing written). Other
 * signatures (from the uploaded original) are counted, not judged.
 */
export async function inspectSeal(bytes: Uint8Array): Promise<{ report: SealReport; check: SignatureCheck | null }> {
  const { ranges, text } = findSignatureRanges(bytes);
  // The one that ends latest, decoded alone: the others are counted, never copied.
  const last = ranges.reduce<(typeof ranges)[number] | null>((a, s) => (!a || s.byteRange[2] + s.byteRange[3] > a.byteRange[2] + a.byteRange[3] ? s : a), null);
  const signature = last ? decodeSignature(text, last) : null;
  const check = signature ? await checkSignature(bytes, signature) : null;
  return { report: toReport(check, ranges.length), check };
}

export type PublicVerdict = "sealed_unchanged" | "sealed_changed" | "not_sealed_by_this_platform";

/** The public answer: whether this platform sealed the file and whether it changed since. Nothing else. */
export interface PublicVerification {
  verdict: PublicVerdict;
  sealedByThisPlatform: boolean;
  unchanged: boolean | null;
}

/**
 * "Sealed by this platform" needs a signature that verifies with one of the platform's seal
 * certificates (`isPlatformCertificate` gets its SHA-256 fingerprint): a certificate copied into a
 * forged CMS does not sign. Changed = covered bytes differ, or bytes were added after the seal.
 */
export async function verifyForPublic(bytes: Uint8Array, isPlatformCertificate: (sha256: string) => Promise<boolean>): Promise<PublicVerification> {
  const { check } = await inspectSeal(bytes);
  return publicVerdict(
    check && {
      signatureValid: check.signatureValid,
      digestMatches: check.digestMatches,
      coversWholeFile: check.coversWholeFile,
      certificateSha256: check.signerCertificate ? certificateFingerprint(check.signerCertificate) : null,
    },
    isPlatformCertificate,
  );
}

/** What publicVerdict needs of a file's last signature (found where the search ran: an inspector process). */
export interface SealFindingInput {
  signatureValid: boolean;
  digestMatches: boolean;
  coversWholeFile: boolean;
  certificateSha256: string | null;
}

/** verifyForPublic's answer from a finding made elsewhere: the same rules. */
export async function publicVerdict(
  finding: SealFindingInput | null,
  isPlatformCertificate: (sha256: string) => Promise<boolean>,
): Promise<PublicVerification> {
  const sealed = finding?.signatureValid === true && finding.certificateSha256 !== null && (await isPlatformCertificate(finding.certificateSha256));
  if (!sealed || !finding) return { verdict: "not_sealed_by_this_platform", sealedByThisPlatform: false, unchanged: null };
  const unchanged = finding.digestMatches && finding.coversWholeFile;
  return { verdict: unchanged ? "sealed_unchanged" : "sealed_changed", sealedByThisPlatform: true, unchanged };
}
