import { daysBefore, defineStatement, jsonText, qb } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";

/*
 * The recycle bin's purge (purge-recycle-bin.ts): case files deleted longer ago than their
 * customer's recycleBinDays, removed for good with everything of theirs.
 */

const ID = 1;
/** The states of a webhook delivery that will still read its event. */
const OPEN_DELIVERY_STATES = ["pending", "suspended"];

/**
 * Case files whose time in the recycle bin is over (deletedAt before now minus the customer's
 * recycleBinDays), oldest first.
 *
 * Locks: nothing: the purge of each locks it and checks again (a restore meanwhile wins).
 */
export const dueForPurgeSql = defineStatement(
  "case-files-due-for-purge",
  { limit: 100 },
  ({ limit }) =>
    qb
      .selectFrom("CaseFile as cf")
      .innerJoin("Customer as c", "c.id", "cf.customerId")
      .select(["cf.id", "cf.deletedAt"])
      .where("cf.status", "=", CASEFILE_STATUS.deleted)
      .where((eb) => eb("cf.deletedAt", "<", daysBefore(eb.fn<Date>("now"), eb.ref("c.recycleBinDays"))))
      .orderBy("cf.deletedAt")
      .limit(limit),
  { reuse: "shape" },
);

/**
 * The stored files a case file's documents name: their uploads and sealed copies.
 *
 * Locks: nothing more (the case file row is locked by the caller; nothing changes a deleted one).
 */
export const documentFilesSql = defineStatement(
  "case-file-document-files",
  { caseFileId: ID },
  ({ caseFileId }) => qb.selectFrom("Document").select(["fileSha256", "signedSha256"]).where("caseFileId", "=", caseFileId),
  { reuse: "shape" },
);

/**
 * The signature images (drawn or uploaded) of a case file's signers, by their content address.
 *
 * Locks: nothing more (the case file row is locked by the caller).
 */
export const signatureImagesSql = defineStatement(
  "case-file-signature-images",
  { caseFileId: ID },
  ({ caseFileId }) => qb.selectFrom("Signer").select("signatureValue").where("caseFileId", "=", caseFileId).where("signatureMethod", "in", ["draw", "image"]),
  { reuse: "shape" },
);

/**
 * The case file's outbox events that were relayed and that no webhook delivery will read again
 * (none pending or suspended): a case file event names it as `id`, a signer event as `caseFile.id`.
 *
 * Locks: nothing: relayed events are never changed; a delivery still open keeps its event.
 */
export const relayedEventsOfSql = defineStatement(
  "relayed-events-of-case-file",
  { customerId: ID, caseFileId: ID, since: new Date(0) },
  ({ customerId, caseFileId, since }) =>
    qb
      .selectFrom("Event as e")
      .select("e.id")
      .where("e.customerId", "=", customerId)
      .where("e.occurredAt", ">=", since)
      .where("e.relayedAt", "is not", null)
      .where((eb) =>
        eb.or([
          eb.and([eb("e.topic", "=", "casefile"), eb(jsonText(eb.ref("e.payload"), "id"), "=", String(caseFileId))]),
          eb.and([eb("e.topic", "=", "signer"), eb(jsonText(eb.ref("e.payload"), "caseFile", "id"), "=", String(caseFileId))]),
        ]),
      )
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom("WebhookDelivery as d").select("d.id").whereRef("d.eventId", "=", "e.id").where("d.state", "in", OPEN_DELIVERY_STATES))),
      ),
);

/**
 * Those events, and their finished deliveries (with their attempts, by cascade).
 *
 * Locks: the rows deleted.
 */
export const deleteEventsSql = defineStatement("delete-purged-events", { eventIds: ["00000000-0000-4000-8000-000000000000"] }, ({ eventIds }) =>
  qb
    .with("deliveries", (db) => db.deleteFrom("WebhookDelivery").where("eventId", "in", eventIds))
    .deleteFrom("Event")
    .where("id", "in", eventIds),
);

/**
 * The case file for good: its log entries (they have no foreign key), its creation job, and the case
 * file itself, whose documents, signers (with their links and notifications) and cc recipients go
 * with it by cascade. Only while it is still the deletion the purge found (a restore wins).
 *
 * Locks: the rows deleted; the case file row is locked by the caller first.
 */
export const purgeCaseFileSql = defineStatement(
  "purge-case-file",
  { caseFileId: ID, creationJobId: "00000000-0000-4000-8000-000000000000" as string | null },
  ({ caseFileId, creationJobId }) =>
    qb
      .with("log", (db) => db.deleteFrom("LogEntry").where("caseFileId", "=", caseFileId))
      .with("job", (db) => db.deleteFrom("CreationJob").where("id", "=", creationJobId))
      .deleteFrom("CaseFile")
      .where("id", "=", caseFileId)
      .where("status", "=", CASEFILE_STATUS.deleted)
      .returning("id"),
);

/**
 * Whether anything still names a stored file: a document (upload or sealed copy), a signature
 * image, or a creation job (a create of the same bytes, waiting or done).
 *
 * Locks: nothing (a file named again after this check is the race the purge documents).
 */
export const fileReferencedSql = defineStatement("stored-file-referenced", { sha256: "0".repeat(64) }, ({ sha256 }) =>
  qb.selectNoFrom((eb) => [
    eb
      .or([
        eb.exists(
          eb
            .selectFrom("Document")
            .select("id")
            .where((w) => w.or([w("fileSha256", "=", sha256), w("signedSha256", "=", sha256)])),
        ),
        eb.exists(eb.selectFrom("Signer").select("id").where("signatureValue", "=", sha256)),
        eb.exists(
          eb
            .selectFrom("CreationJob")
            .select("id")
            .where((w) => w("files", "@>", w.cast<unknown>(w.val(JSON.stringify([{ sha256 }])), "jsonb"))),
        ),
      ])
      .as("referenced"),
  ]),
);
