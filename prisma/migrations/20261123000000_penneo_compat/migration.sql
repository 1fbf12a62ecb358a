-- Penneo's published clients (issue 12): the aborted_duplicated job status, the duplicate lookup,
-- case file deletion, the signer's first email open, refresh tokens. The per-job poll limit moved
-- to Redis (20 per minute), so the poll timestamp goes.

-- AlterEnum (not used in this transaction, which PostgreSQL >= 12 allows)
ALTER TYPE "JobStatus" ADD VALUE IF NOT EXISTS 'aborted_duplicated';

-- AlterTable
ALTER TABLE "CreationJob" DROP COLUMN "lastPolledAt";

-- CreateIndex
CREATE INDEX "CreationJob_customerId_payloadHash_createdAt_idx" ON "CreationJob"("customerId", "payloadHash", "createdAt");

-- AlterTable
ALTER TABLE "CaseFile" ADD COLUMN "deletedAt" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "Signer" ADD COLUMN "requestOpenedAt" TIMESTAMPTZ(6);

-- CreateTable
CREATE TABLE "RefreshToken" (
    "id" UUID NOT NULL,
    "familyId" UUID NOT NULL,
    "apiClientId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(6) NOT NULL,
    "usedAt" TIMESTAMPTZ(6),
    "revokedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RefreshToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RefreshToken_tokenHash_key" ON "RefreshToken"("tokenHash");

-- CreateIndex
CREATE INDEX "RefreshToken_familyId_idx" ON "RefreshToken"("familyId");

-- CreateIndex
CREATE INDEX "RefreshToken_expiresAt_idx" ON "RefreshToken"("expiresAt");

-- AddForeignKey
ALTER TABLE "RefreshToken" ADD CONSTRAINT "RefreshToken_apiClientId_fkey" FOREIGN KEY ("apiClientId") REFERENCES "ApiClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;
