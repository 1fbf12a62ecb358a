-- Issue 24 (part C): folders and contacts, at Penneo's `folders` and `contacts` resources.
--
-- Folders belong to a customer and nest (parentId). A case file is in at most one folder: the
-- existing CaseFile.folderId (the create payload's `folderId`), which becomes a foreign key to
-- Folder here. Until now folderId held whatever number a create sent, and there were no folders:
-- every folderId that names no folder is set to NULL BEFORE the key is added (with an empty Folder
-- table, that is every non-null one). Deleting a folder leaves its case files without a folder
-- (ON DELETE SET NULL); the gateway moves its child folders up to its parent first.
--
-- Contacts: a customer's address book (signers and copy recipients stored with storeAsContact, and
-- the contacts API). One contact per email per customer, compared case-insensitively: the unique
-- key is on a generated lower(email) column, which ON CONFLICT can name.

-- CreateTable
CREATE TABLE "Folder" (
    "id" SERIAL NOT NULL,
    "customerId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "parentId" INTEGER,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Folder_pkey" PRIMARY KEY ("id")
);

-- CreateIndex: a customer's folders in id order (the list's default), and a folder's children.
CREATE INDEX "Folder_customerId_id_idx" ON "Folder"("customerId", "id");
CREATE INDEX "Folder_parentId_idx" ON "Folder"("parentId");

-- AddForeignKey
ALTER TABLE "Folder" ADD CONSTRAINT "Folder_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Folder" ADD CONSTRAINT "Folder_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Folder"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Case files: folderId values that name no folder are cleared, then the key is added.
UPDATE "CaseFile" SET "folderId" = NULL
WHERE "folderId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "Folder" f WHERE f."id" = "CaseFile"."folderId");

-- CreateIndex: a folder's case files in id order; also what ON DELETE SET NULL looks them up by.
CREATE INDEX "CaseFile_folderId_id_idx" ON "CaseFile"("folderId", "id");

-- AddForeignKey
ALTER TABLE "CaseFile" ADD CONSTRAINT "CaseFile_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "Folder"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "Contact" (
    "id" SERIAL NOT NULL,
    "customerId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailKey" TEXT NOT NULL GENERATED ALWAYS AS (lower("email")) STORED,
    "onBehalfOf" TEXT,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Contact_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Contact_customerId_emailKey_key" ON "Contact"("customerId", "emailKey");
CREATE INDEX "Contact_customerId_id_idx" ON "Contact"("customerId", "id");

-- AddForeignKey
ALTER TABLE "Contact" ADD CONSTRAINT "Contact_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
