-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "targetSubscriptionId" UUID;

-- AlterTable
ALTER TABLE "WebhookSubscription" ADD COLUMN     "disabledNotifiedAt" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "ladderStep" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastAttemptAt" TIMESTAMPTZ(6);

-- CreateIndex
CREATE INDEX "WebhookDelivery_state_nextAttemptAt_idx" ON "WebhookDelivery"("state", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookAttempt_deliveryId_attemptNumber_key" ON "WebhookAttempt"("deliveryId", "attemptNumber");

