-- Every upload is opened before the create is answered (issue 14): its page count is known from then on.

-- AlterTable
ALTER TABLE "Document" ADD COLUMN "pageCount" INTEGER;
