-- AlterTable
ALTER TABLE "CaseFile" ADD COLUMN     "completedAt" TIMESTAMPTZ(6),
ADD COLUMN     "expiredAt" TIMESTAMPTZ(6),
ADD COLUMN     "failedAt" TIMESTAMPTZ(6),
ADD COLUMN     "failureReason" TEXT,
ADD COLUMN     "rejectedAt" TIMESTAMPTZ(6),
ADD COLUMN     "signedAt" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "Signer" ADD COLUMN     "activatedAt" TIMESTAMPTZ(6),
ADD COLUMN     "deletedAt" TIMESTAMPTZ(6),
ADD COLUMN     "expiredAt" TIMESTAMPTZ(6),
ADD COLUMN     "openedAt" TIMESTAMPTZ(6),
ADD COLUMN     "rejectReason" TEXT,
ADD COLUMN     "rejectedAt" TIMESTAMPTZ(6),
ADD COLUMN     "remindersSent" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "signatureMethod" TEXT,
ADD COLUMN     "signatureValue" TEXT;

-- CreateTable
CREATE TABLE "Notification" (
    "id" UUID NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "caseFileId" INTEGER,
    "signerId" INTEGER,
    "kind" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "messageId" TEXT,
    "error" TEXT,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Notification_dedupeKey_key" ON "Notification"("dedupeKey");

-- CreateIndex
CREATE INDEX "Notification_caseFileId_idx" ON "Notification"("caseFileId");

-- CreateIndex
CREATE INDEX "Notification_signerId_idx" ON "Notification"("signerId");

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_caseFileId_fkey" FOREIGN KEY ("caseFileId") REFERENCES "CaseFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_signerId_fkey" FOREIGN KEY ("signerId") REFERENCES "Signer"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- AlterTable: links created before this migration have no encrypted copy; they keep working for signing.
ALTER TABLE "SigningLink" ADD COLUMN     "tokenEnc" TEXT NOT NULL DEFAULT '';
ALTER TABLE "SigningLink" ALTER COLUMN "tokenEnc" DROP DEFAULT;
