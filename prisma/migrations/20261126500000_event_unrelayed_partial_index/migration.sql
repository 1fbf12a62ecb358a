-- Issue 25: the outbox relay claims the oldest unrelayed events (relayedAt IS NULL, by seq). The index
-- it read, ("relayedAt", "occurredAt"), held every event ever written, twice over its life (an entry
-- at the insert and another when the relay set relayedAt), and was ordered by occurredAt, so each
-- claim sorted what it found. A partial index on seq of the unrelayed events alone answers the claim
-- in order, stays as small as the outbox's backlog, and takes no entry when an event is relayed.
-- Nothing else reads the old index (the recycle-bin purge goes by customerId and occurredAt).
DROP INDEX IF EXISTS "Event_relayedAt_occurredAt_idx";
CREATE INDEX IF NOT EXISTS "Event_unrelayed_seq_idx" ON "Event" ("seq") WHERE "relayedAt" IS NULL;
