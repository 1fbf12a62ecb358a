-- Issue 28: the customer's users in the web application. Passwords (scrypt, parameters in the
-- value), disabled users, browser sessions (the cookie's token stored as sha256), invitations by mail
-- (the token stored as sha256 for lookup and encrypted for the notifier's link), folders shared with
-- members, and the customer's request for the e-Boks channel.

-- AlterTable
ALTER TABLE "User" ADD COLUMN "passwordHash" TEXT, ADD COLUMN "disabledAt" TIMESTAMPTZ(6);
ALTER TABLE "Customer" ADD COLUMN "eboksRequestedAt" TIMESTAMPTZ(6);

-- Sign-in is by email: one user with a password per address, ignoring case (users made only for
-- API clients, without a password, may share one).
CREATE UNIQUE INDEX "User_password_email_key" ON "User"(lower("email")) WHERE "passwordHash" IS NOT NULL;

-- CreateTable
CREATE TABLE "UserSession" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "csrfToken" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "UserSession_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "UserSession_userId_idx" ON "UserSession"("userId");
ALTER TABLE "UserSession" ADD CONSTRAINT "UserSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "UserInvitation" (
    "id" SERIAL NOT NULL,
    "customerId" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "tokenHash" TEXT NOT NULL,
    "tokenEnc" TEXT NOT NULL,
    "invitedById" INTEGER,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(6) NOT NULL,
    "acceptedAt" TIMESTAMPTZ(6),
    "mailedAt" TIMESTAMPTZ(6),

    CONSTRAINT "UserInvitation_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "UserInvitation_tokenHash_key" ON "UserInvitation"("tokenHash");
CREATE INDEX "UserInvitation_customerId_idx" ON "UserInvitation"("customerId");
ALTER TABLE "UserInvitation" ADD CONSTRAINT "UserInvitation_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "FolderShare" (
    "folderId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FolderShare_pkey" PRIMARY KEY ("folderId", "userId")
);
CREATE INDEX "FolderShare_userId_idx" ON "FolderShare"("userId");
ALTER TABLE "FolderShare" ADD CONSTRAINT "FolderShare_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "Folder"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "FolderShare" ADD CONSTRAINT "FolderShare_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A member's archive: their own case files, newest first.
CREATE INDEX "CaseFile_customerId_userId_createdAt_id_idx" ON "CaseFile"("customerId", "userId", "createdAt", "id");
