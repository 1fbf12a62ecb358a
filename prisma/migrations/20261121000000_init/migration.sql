-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('pending', 'processing', 'completed', 'failed');

-- CreateTable
CREATE TABLE "Customer" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "eboksEnabled" BOOLEAN NOT NULL DEFAULT false,
    "secureSigningMethods" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Customer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "customerId" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiClient" (
    "id" SERIAL NOT NULL,
    "customerId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecretHash" TEXT NOT NULL,
    "apiKey" TEXT NOT NULL,
    "apiSecretEnc" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMPTZ(6),

    CONSTRAINT "ApiClient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CreationJob" (
    "id" UUID NOT NULL,
    "customerId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "payloadHash" TEXT NOT NULL,
    "idempotencyKey" TEXT,
    "status" "JobStatus" NOT NULL DEFAULT 'pending',
    "payload" JSONB NOT NULL,
    "files" JSONB NOT NULL,
    "result" JSONB,
    "errorMessage" TEXT,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "maxRetries" INTEGER NOT NULL DEFAULT 3,
    "lastPolledAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "CreationJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CaseFile" (
    "id" SERIAL NOT NULL,
    "customerId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "creationJobId" UUID,
    "title" TEXT NOT NULL,
    "status" INTEGER NOT NULL DEFAULT 0,
    "activate" BOOLEAN NOT NULL DEFAULT true,
    "language" TEXT,
    "metaData" TEXT,
    "reference" TEXT,
    "folderId" INTEGER,
    "sendAt" TIMESTAMPTZ(6),
    "expireAt" TIMESTAMPTZ(6),
    "sensitiveData" BOOLEAN NOT NULL DEFAULT false,
    "visibilityMode" INTEGER NOT NULL DEFAULT 0,
    "disableNotificationsOwner" BOOLEAN NOT NULL DEFAULT false,
    "disableEmailAttachments" BOOLEAN NOT NULL DEFAULT false,
    "senderName" TEXT,
    "signOnMeeting" BOOLEAN NOT NULL DEFAULT false,
    "sentAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "CaseFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Document" (
    "id" SERIAL NOT NULL,
    "caseFileId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "signable" BOOLEAN NOT NULL DEFAULT true,
    "roles" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "documentOrder" INTEGER,
    "metaData" TEXT,
    "fileSha256" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "signedSha256" TEXT,

    CONSTRAINT "Document_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Signer" (
    "id" SERIAL NOT NULL,
    "caseFileId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "channel" TEXT NOT NULL DEFAULT 'email',
    "cpr" TEXT,
    "cvr" TEXT,
    "socialSecurityNumber" TEXT,
    "vatin" TEXT,
    "role" TEXT NOT NULL DEFAULT 'Signer',
    "onBehalfOf" TEXT,
    "signOrder" INTEGER NOT NULL DEFAULT 0,
    "ssnType" TEXT,
    "accessControl" BOOLEAN NOT NULL DEFAULT false,
    "successUrl" TEXT,
    "failUrl" TEXT,
    "language" TEXT,
    "enableInsecureSigning" BOOLEAN NOT NULL DEFAULT false,
    "insecureSigningMethods" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "secureSigningMethods" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "storeAsContact" BOOLEAN NOT NULL DEFAULT false,
    "notification" JSONB NOT NULL,
    "activeAt" TIMESTAMPTZ(6),
    "expireAt" TIMESTAMPTZ(6),
    "status" INTEGER NOT NULL DEFAULT 0,
    "signedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "Signer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SigningLink" (
    "id" SERIAL NOT NULL,
    "signerId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SigningLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CcRecipient" (
    "id" SERIAL NOT NULL,
    "caseFileId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "storeAsContact" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "CcRecipient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" UUID NOT NULL,
    "customerId" INTEGER NOT NULL,
    "topic" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "occurredAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "relayedAt" TIMESTAMPTZ(6),

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookSubscription" (
    "id" UUID NOT NULL,
    "customerId" INTEGER NOT NULL,
    "createdByUserId" INTEGER NOT NULL,
    "endpoint" TEXT NOT NULL,
    "eventTypes" TEXT[],
    "secretEnc" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "disabledAt" TIMESTAMPTZ(6),
    "deletedAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "WebhookSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" UUID NOT NULL,
    "eventId" UUID NOT NULL,
    "subscriptionId" UUID NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" UUID NOT NULL,
    "deliveryId" UUID NOT NULL,
    "eventId" UUID NOT NULL,
    "subscriptionId" UUID NOT NULL,
    "attemptNumber" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "httpStatus" INTEGER,
    "cause" TEXT NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "nextAttemptAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "User_customerId_idx" ON "User"("customerId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiClient_clientId_key" ON "ApiClient"("clientId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiClient_apiKey_key" ON "ApiClient"("apiKey");

-- CreateIndex
CREATE INDEX "CreationJob_status_createdAt_idx" ON "CreationJob"("status", "createdAt");

-- CreateIndex
CREATE INDEX "CreationJob_createdAt_idx" ON "CreationJob"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "CreationJob_customerId_idempotencyKey_key" ON "CreationJob"("customerId", "idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "CaseFile_creationJobId_key" ON "CaseFile"("creationJobId");

-- CreateIndex
CREATE INDEX "CaseFile_customerId_idx" ON "CaseFile"("customerId");

-- CreateIndex
CREATE INDEX "Document_caseFileId_idx" ON "Document"("caseFileId");

-- CreateIndex
CREATE INDEX "Signer_caseFileId_idx" ON "Signer"("caseFileId");

-- CreateIndex
CREATE UNIQUE INDEX "SigningLink_signerId_key" ON "SigningLink"("signerId");

-- CreateIndex
CREATE UNIQUE INDEX "SigningLink_tokenHash_key" ON "SigningLink"("tokenHash");

-- CreateIndex
CREATE INDEX "CcRecipient_caseFileId_idx" ON "CcRecipient"("caseFileId");

-- CreateIndex
CREATE INDEX "Event_relayedAt_occurredAt_idx" ON "Event"("relayedAt", "occurredAt");

-- CreateIndex
CREATE INDEX "Event_customerId_occurredAt_idx" ON "Event"("customerId", "occurredAt");

-- CreateIndex
CREATE INDEX "WebhookSubscription_customerId_isActive_idx" ON "WebhookSubscription"("customerId", "isActive");

-- CreateIndex
CREATE INDEX "WebhookDelivery_subscriptionId_state_idx" ON "WebhookDelivery"("subscriptionId", "state");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_eventId_subscriptionId_key" ON "WebhookDelivery"("eventId", "subscriptionId");

-- CreateIndex
CREATE INDEX "WebhookAttempt_subscriptionId_createdAt_id_idx" ON "WebhookAttempt"("subscriptionId", "createdAt" DESC, "id");

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiClient" ADD CONSTRAINT "ApiClient_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiClient" ADD CONSTRAINT "ApiClient_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreationJob" ADD CONSTRAINT "CreationJob_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CaseFile" ADD CONSTRAINT "CaseFile_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CaseFile" ADD CONSTRAINT "CaseFile_creationJobId_fkey" FOREIGN KEY ("creationJobId") REFERENCES "CreationJob"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Document" ADD CONSTRAINT "Document_caseFileId_fkey" FOREIGN KEY ("caseFileId") REFERENCES "CaseFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Signer" ADD CONSTRAINT "Signer_caseFileId_fkey" FOREIGN KEY ("caseFileId") REFERENCES "CaseFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SigningLink" ADD CONSTRAINT "SigningLink_signerId_fkey" FOREIGN KEY ("signerId") REFERENCES "Signer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CcRecipient" ADD CONSTRAINT "CcRecipient_caseFileId_fkey" FOREIGN KEY ("caseFileId") REFERENCES "CaseFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookSubscription" ADD CONSTRAINT "WebhookSubscription_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookSubscription" ADD CONSTRAINT "WebhookSubscription_createdByUserId_fkey" FOREIGN KEY ("createdByUserId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "WebhookSubscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

