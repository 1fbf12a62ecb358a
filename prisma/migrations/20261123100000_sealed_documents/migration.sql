-- AlterTable: evidence of the signer's own request (sign or reject) and, for eID methods, the provider.
ALTER TABLE "Signer" ADD COLUMN     "actionIp" TEXT,
ADD COLUMN     "actionUserAgent" TEXT,
ADD COLUMN     "identityProvider" TEXT;

-- AlterTable: when and at which PAdES level the signed copy was sealed.
ALTER TABLE "Document" ADD COLUMN     "sealedAt" TIMESTAMPTZ(6),
ADD COLUMN     "sealLevel" TEXT;

-- CreateIndex: public verification looks a sealed file up by its content address.
CREATE INDEX "Document_signedSha256_idx" ON "Document"("signedSha256");

-- CreateTable: every seal certificate the platform has sealed with (kept across key rotations).
CREATE TABLE "SealCertificate" (
    "sha256" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "certificate" BYTEA NOT NULL,
    "firstUsedAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SealCertificate_pkey" PRIMARY KEY ("sha256")
);
