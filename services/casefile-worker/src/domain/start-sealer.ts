import type { AppConfig } from "@esign/config";
import type { Db } from "@esign/db";
import type { Logger } from "@esign/logger";
import { createSealer, type Sealer } from "@esign/seal";

/**
 * The seal this worker finalizes with, from SEAL_P12_PATH (or the development seal), and its
 * certificate recorded in `SealCertificate`: public verification trusts exactly the certificates
 * listed there, including those of keys rotated out since.
 */
export async function startSealer(config: AppConfig, db: Db, logger: Logger): Promise<Sealer> {
  const sealer = await createSealer({
    production: config.production,
    p12Path: config.SEAL_P12_PATH,
    p12Password: config.SEAL_P12_PASSWORD,
    tsaUrl: config.TSA_URL,
    developmentDir: config.SEAL_DEVELOPMENT_DIR,
  });
  // INSERT ... ON CONFLICT DO NOTHING: replicas starting together record the same certificate at
  // once (Prisma's upsert reads, then inserts: the second replica failed its start on the primary key).
  await db.sealCertificate.createMany({
    data: [{ sha256: sealer.certificateSha256, subject: sealer.certificateSubject, certificate: Buffer.from(sealer.key.certificate) }],
    skipDuplicates: true,
  });
  logger.info("seal ready", {
    certificateSha256: sealer.certificateSha256,
    subject: sealer.certificateSubject,
    level: sealer.level,
    source: sealer.description,
  });
  return sealer;
}
