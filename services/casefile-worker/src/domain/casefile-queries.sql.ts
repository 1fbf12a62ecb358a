import { defineStatement, jsonText, qb } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";

/**
 * First opening per signer of a case file, from the outbox's `sign.signer.opened` events (the
 * audit trail states when each signer first saw the documents).
 *
 * Locks: nothing: events are never changed, and the case file is signed (no more openings) when
 * its audit trail is made.
 */
export const firstOpeningsSql = defineStatement("first-signer-openings", { customerId: 1, caseFileId: 1 }, ({ customerId, caseFileId }) =>
  qb
    .selectFrom((db) =>
      db
        .selectFrom("Event")
        .select((eb) => [jsonText(eb.ref("payload"), "id").as("signerId"), "occurredAt"])
        .where("customerId", "=", customerId)
        .where("eventType", "=", "sign.signer.opened")
        .where((eb) => eb(jsonText(eb.ref("payload"), "caseFile", "id"), "=", String(caseFileId)))
        .as("opened"),
    )
    .select((eb) => ["opened.signerId", eb.fn.min<Date>("opened.occurredAt").as("first")])
    .groupBy("opened.signerId"),
);

/*
 * The lifecycle sweeper's questions (sweep-lifecycle.ts): work the database says is overdue by more
 * than a grace period, at most `limit` rows each. None locks: a row found here only gets a job
 * enqueued under a deterministic id, and the job locks the case file and checks again.
 */

/**
 * Pending case files that an advance would change: everyone has signed, or a signer of the current
 * round could be active and is not. A signature or deletion after `cutoff` still has its own advance
 * on the way, so those case files are left alone.
 *
 * Locks: nothing (the advance job locks the case file and decides).
 */
export const stuckPendingCaseFilesSql = defineStatement(
  "stuck-pending-case-files",
  { cutoff: new Date(0), now: new Date(0), limit: 500 },
  ({ cutoff, now, limit }) =>
    qb
      .selectFrom("CaseFile as cf")
      .select("cf.id")
      .where("cf.status", "=", CASEFILE_STATUS.pending)
      .where("cf.sentAt", "<=", cutoff)
      .where(({ not, exists, selectFrom, or }) =>
        not(
          exists(
            selectFrom("Signer as r")
              .select("r.id")
              .whereRef("r.caseFileId", "=", "cf.id")
              .where((eb) => or([eb("r.signedAt", ">", cutoff), eb("r.deletedAt", ">", cutoff)])),
          ),
        ),
      )
      .where(({ and, or, not, exists, selectFrom }) =>
        or([
          and([
            not(
              exists(
                selectFrom("Signer as s")
                  .select("s.id")
                  .whereRef("s.caseFileId", "=", "cf.id")
                  .where("s.status", "not in", [SIGNER_STATUS.deleted, SIGNER_STATUS.signed]),
              ),
            ),
            exists(selectFrom("Signer as s").select("s.id").whereRef("s.caseFileId", "=", "cf.id").where("s.status", "=", SIGNER_STATUS.signed)),
          ]),
          exists(
            selectFrom("Signer as s")
              .select("s.id")
              .whereRef("s.caseFileId", "=", "cf.id")
              .where("s.status", "=", SIGNER_STATUS.new)
              .where("s.expiredAt", "is", null)
              .where((w) => w.or([w("s.expireAt", "is", null), w("s.expireAt", ">", now)]))
              .where((w) => w.or([w("s.activeAt", "is", null), w("s.activeAt", "<=", cutoff)]))
              .where("s.signOrder", "=", (w) =>
                w
                  .selectFrom("Signer as u")
                  .select((m) => m.fn.min<number>("u.signOrder").as("first"))
                  .whereRef("u.caseFileId", "=", "cf.id")
                  .where("u.status", "not in", [SIGNER_STATUS.deleted, SIGNER_STATUS.signed]),
              ),
          ),
        ]),
      )
      .limit(limit),
);

/**
 * Case files past their expireAt (by `cutoff`) and still out for signing, or activated and waiting
 * for their sendAt: their expiry job is owed.
 *
 * Locks: nothing (the expire job locks the case file and checks its status and expireAt again).
 */
export const overdueCaseFileExpiriesSql = defineStatement(
  "overdue-case-file-expiries",
  { cutoff: new Date(0), limit: 500 },
  ({ cutoff, limit }) =>
    qb
      .selectFrom("CaseFile")
      .select(["id", "expireAt"])
      .where("expireAt", "<=", cutoff)
      .where((eb) => eb.or([eb("status", "=", CASEFILE_STATUS.pending), eb.and([eb("status", "=", CASEFILE_STATUS.new), eb("activate", "=", true)])]))
      .limit(limit),
  { reuse: "shape" },
);

/**
 * Signers of pending case files past their own expireAt (by `cutoff`) who have not signed and are
 * not marked expired yet: their expire-signer job is owed.
 *
 * Locks: nothing (the expire-signer job locks the case file, then the signer, and checks again).
 */
export const overdueSignerExpiriesSql = defineStatement(
  "overdue-signer-expiries",
  { cutoff: new Date(0), limit: 500 },
  ({ cutoff, limit }) =>
    qb
      .selectFrom("Signer as s")
      .innerJoin("CaseFile as cf", "cf.id", "s.caseFileId")
      .select(["s.id", "s.expireAt"])
      .where("s.expireAt", "<=", cutoff)
      .where("s.expiredAt", "is", null)
      .where("s.status", "in", [SIGNER_STATUS.new, SIGNER_STATUS.pending])
      .where("cf.status", "=", CASEFILE_STATUS.pending)
      .limit(limit),
  { reuse: "shape" },
);

/**
 * Case files signed (by `cutoff`) and not completed: their finalization is owed.
 *
 * Locks: nothing (the finalize job locks the case file and checks that it is still signed).
 */
export const unfinalizedCaseFilesSql = defineStatement(
  "unfinalized-case-files",
  { cutoff: new Date(0), limit: 500 },
  ({ cutoff, limit }) =>
    qb
      .selectFrom("CaseFile")
      .select("id")
      .where("status", "=", CASEFILE_STATUS.signed)
      .where("completedAt", "is", null)
      .where("signedAt", "<=", cutoff)
      .limit(limit),
  { reuse: "shape" },
);
