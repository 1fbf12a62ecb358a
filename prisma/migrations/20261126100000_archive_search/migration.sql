-- Issue 24, part A: the archive. Case files listed and searched as Penneo's SDKs filter and sort
-- them, drafts sent or activated after create, and the recycle bin (delete, restore, purge).

-- A case file activated (PATCH .../activate) rather than sent: its signing links work and its events
-- flow, but the integrator hands the links out; no signing request, reminder or e-Boks message goes
-- to its signers.
ALTER TABLE "CaseFile" ADD COLUMN "sendSigningRequests" BOOLEAN NOT NULL DEFAULT true;

-- The status a case file had when it went to the recycle bin (status 3): restore returns it there.
ALTER TABLE "CaseFile" ADD COLUMN "deletedFromStatus" INTEGER;

-- Case files deleted before this column existed: their status before the delete, read from the
-- times each state leaves (nothing changes a case file while it is deleted).
UPDATE "CaseFile" SET "deletedFromStatus" = CASE
    WHEN "failedAt" IS NOT NULL THEN 6
    WHEN "completedAt" IS NOT NULL THEN 5
    WHEN "signedAt" IS NOT NULL THEN 4
    WHEN "rejectedAt" IS NOT NULL THEN 2
    WHEN "expiredAt" IS NOT NULL THEN 7
    WHEN "sentAt" IS NOT NULL THEN 1
    ELSE 0
  END
WHERE "status" = 3;

-- How long a deleted case file stays in the recycle bin before the casefile-worker purges it.
ALTER TABLE "Customer" ADD COLUMN "recycleBinDays" INTEGER NOT NULL DEFAULT 30;

-- The list's default order (created desc, id desc) and created ranges, per customer. It serves
-- everything the plain customerId index served, which goes.
DROP INDEX IF EXISTS "CaseFile_customerId_idx";
CREATE INDEX "CaseFile_customerId_createdAt_id_idx" ON "CaseFile"("customerId", "createdAt", "id");

-- status=... (findByStatus), in the default order.
CREATE INDEX "CaseFile_customerId_status_createdAt_id_idx" ON "CaseFile"("customerId", "status", "createdAt", "id");

-- Retrieving completed case files (Penneo's readme: status=5, sort=-completed, completedAfter/Before).
-- With the status first: completedAt is null for every case file not completed, and a descending
-- order puts nulls first, so a (customerId, completedAt) index would walk past all of them.
CREATE INDEX "CaseFile_customerId_status_completedAt_id_idx" ON "CaseFile"("customerId", "status", "completedAt", "id");

-- metaData and reference match exactly. They have no length limit, and a btree entry holds at most
-- ~2.7 kB: the index keys are their md5, the query compares md5 and then the value itself.
CREATE INDEX "CaseFile_customerId_metaData_md5_idx" ON "CaseFile"("customerId", md5("metaData"));
CREATE INDEX "CaseFile_customerId_reference_md5_idx" ON "CaseFile"("customerId", md5("reference"));

-- The purge finds what has been in the bin long enough.
CREATE INDEX "CaseFile_deletedAt_idx" ON "CaseFile"("deletedAt") WHERE "status" = 3;

-- Documents by metaData (GET documents?metaData=..., sdk-php findByMetaData).
CREATE INDEX "Document_metaData_md5_idx" ON "Document"(md5("metaData"));

-- title contains (case-insensitive): trigram indexes, when the pg_trgm extension can be created
-- here. pg_trgm is a trusted extension (PostgreSQL 13+): any role with CREATE on the database may
-- create it. Where it cannot be (not installed, no privilege), the migration goes on without these
-- indexes and title searches scan the customer's case files (docs/operating.md, "Search").
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available (%): title searches will not be indexed', SQLERRM;
  END;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX "CaseFile_title_trgm_idx" ON "CaseFile" USING gin ("title" gin_trgm_ops)';
    EXECUTE 'CREATE INDEX "Document_title_trgm_idx" ON "Document" USING gin ("title" gin_trgm_ops)';
  END IF;
END
$$;
