-- Issue 29: webhook secret rotation with an overlap window, recover tasks, per-subscription
-- throttling, opt-in ordering per case file, and the "failing" warning.
--
-- Rotation keeps the previous secret (encrypted like the current one) until its overlap ends or it is
-- revoked. Ordering needs each delivery's case file (from its event's payload: `id` of a casefile
-- event, `caseFile.id` of a signer event), filled here for existing deliveries. Recover reads a
-- subscription's deliveries by creation time, keyset-paged on (createdAt, id).

-- AlterTable
ALTER TABLE "WebhookSubscription"
    ADD COLUMN "previousSecretEnc" TEXT,
    ADD COLUMN "previousSecretExpiresAt" TIMESTAMPTZ(6),
    ADD COLUMN "maxPerSecond" INTEGER,
    ADD COLUMN "ordered" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "failingNotifiedAt" TIMESTAMPTZ(6);

ALTER TABLE "WebhookDelivery" ADD COLUMN "caseFileId" INTEGER;

UPDATE "WebhookDelivery" d
SET "caseFileId" = CASE
    WHEN e."topic" = 'casefile' AND jsonb_typeof(e."payload" -> 'id') = 'number' THEN (e."payload" ->> 'id')::int
    WHEN e."topic" = 'signer' AND jsonb_typeof(e."payload" -> 'caseFile' -> 'id') = 'number' THEN (e."payload" -> 'caseFile' ->> 'id')::int
END
FROM "Event" e
WHERE e."id" = d."eventId";

-- CreateIndex
CREATE INDEX "WebhookDelivery_subscriptionId_createdAt_id_idx" ON "WebhookDelivery"("subscriptionId", "createdAt", "id");
CREATE INDEX "WebhookDelivery_subscriptionId_caseFileId_state_idx" ON "WebhookDelivery"("subscriptionId", "caseFileId", "state");

-- CreateTable
CREATE TABLE "WebhookRecoverTask" (
    "id" UUID NOT NULL,
    "subscriptionId" UUID NOT NULL,
    "customerId" INTEGER NOT NULL,
    "since" TIMESTAMPTZ(6) NOT NULL,
    "until" TIMESTAMPTZ(6) NOT NULL,
    "includeAll" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "total" INTEGER,
    "queued" INTEGER NOT NULL DEFAULT 0,
    "cursorCreatedAt" TIMESTAMPTZ(6),
    "cursorId" UUID,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(6),

    CONSTRAINT "WebhookRecoverTask_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "WebhookRecoverTask_subscriptionId_createdAt_idx" ON "WebhookRecoverTask"("subscriptionId", "createdAt");
CREATE INDEX "WebhookRecoverTask_state_idx" ON "WebhookRecoverTask"("state");

ALTER TABLE "WebhookRecoverTask" ADD CONSTRAINT "WebhookRecoverTask_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "WebhookSubscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;
