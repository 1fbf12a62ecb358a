-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Event_seq_key" ON "Event"("seq");

