-- Issue 24: the event log of a case file and its signers (Penneo's `log` resource), written in the same
-- transaction as each change; every webhook event of a case file or signer is an entry too.

-- CreateTable
CREATE TABLE "LogEntry" (
    "id" SERIAL NOT NULL,
    "customerId" INTEGER NOT NULL,
    "caseFileId" INTEGER NOT NULL,
    "signerId" INTEGER,
    "code" INTEGER NOT NULL,
    "event" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "userId" INTEGER,
    "ip" TEXT,
    "userAgent" TEXT,
    "detail" JSONB,
    "occurredAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LogEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "LogEntry_caseFileId_id_idx" ON "LogEntry"("caseFileId", "id");

-- CreateIndex
CREATE INDEX "LogEntry_signerId_id_idx" ON "LogEntry"("signerId", "id");
