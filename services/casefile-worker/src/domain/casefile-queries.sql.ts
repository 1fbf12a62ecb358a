import { defineStatement, jsonText, qb } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";

/**
 * First opening per signer of a case file, from the outbox's `sign.signer.opened` events (the
 * audit trail states when each signer first saw the documents).
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

/**
 * Pending case files that an advance would change: everyone has signed, or a signer of the current
 * round could be active and is not. A signature or deletion after `cutoff` still has its own advance
 * on the way, so those case files are left alone.
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
