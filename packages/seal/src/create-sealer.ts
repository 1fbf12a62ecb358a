import { z } from "zod";
import type { AuditTrailContent } from "./audit-trail/audit-trail-content";
import { preloadFonts } from "./audit-trail/fonts";
import { loadP12SealKey } from "./load-seal-key";
import { ensureDevelopmentSeal } from "./pki/development-seal";
import { certificateFingerprint, summarizeCertificate } from "./pki/certificates";
import { sealDocument, type PadesLevel, type SealedDocument } from "./seal-document";
import type { SealKey } from "./seal-key";
import { CheckedTimestampAuthority } from "./timestamp/checked-timestamp-authority";

export const ZSealSettings = z.object({
  production: z.boolean(),
  p12Path: z.string().min(1).optional(),
  p12Password: z.string().optional(),
  tsaUrl: z.url().optional(),
  /** Where development creates (and then reuses) its local CA and seal. */
  developmentDir: z.string().min(1),
});
export type SealSettings = z.infer<typeof ZSealSettings>;

/** The platform's seal, ready to use: key, its certificate's identity, and the timestamp authority. */
export interface Sealer {
  readonly key: SealKey;
  readonly certificateSha256: string;
  readonly certificateSubject: string;
  readonly level: PadesLevel;
  /** Also says where the key came from, for the boot log. */
  readonly description: string;
  seal(original: Uint8Array, content: Omit<AuditTrailContent, "seal">): Promise<SealedDocument>;
}

/**
 * Builds the seal from the settings: SEAL_P12_PATH (+ SEAL_P12_PASSWORD) when given, else, outside
 * production, the development seal under `developmentDir`. Production without a seal is refused here
 * as well as in the config, since a finalization without a seal would deliver unprotected documents.
 */
export async function createSealer(input: SealSettings, key?: SealKey): Promise<Sealer> {
  const settings = ZSealSettings.parse(input);
  let sealKey = key;
  if (!sealKey) {
    if (settings.p12Path) {
      sealKey = await loadP12SealKey(settings.p12Path, settings.p12Password ?? "");
    } else if (settings.production) {
      throw new Error("SEAL_P12_PATH: production needs the platform's seal (a P12 file with the seal key and certificate)");
    } else {
      const dev = await ensureDevelopmentSeal(settings.developmentDir);
      sealKey = await loadP12SealKey(dev.path, dev.password);
    }
  }
  preloadFonts();
  const summary = summarizeCertificate(sealKey.certificate);
  const timestampAuthority = settings.tsaUrl ? new CheckedTimestampAuthority(settings.tsaUrl) : null;
  const resolvedKey = sealKey;
  const seal = { certificateSubject: summary.subject, certificateSha256: certificateFingerprint(resolvedKey.certificate) };
  return {
    key: resolvedKey,
    certificateSha256: seal.certificateSha256,
    certificateSubject: seal.certificateSubject,
    level: timestampAuthority ? "B-T" : "B-B",
    description: `${resolvedKey.description}${timestampAuthority ? `, timestamps from ${settings.tsaUrl}` : ", no timestamp authority"}`,
    seal: (original, content) => sealDocument(original, { ...content, seal }, { key: resolvedKey, timestampAuthority }),
  };
}
