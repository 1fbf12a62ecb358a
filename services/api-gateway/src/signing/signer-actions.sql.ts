import { defineStatement, jsonText, qb, secondsBefore } from "@esign/db";

/** Whether the signer's `requestOpened` event was written within the last `withinSeconds` (the database's clock). */
export const recentRequestOpenedSql = defineStatement(
  "recent-request-opened-event",
  { customerId: 1, signerId: 1, withinSeconds: 60 },
  (a) =>
    qb
      .selectFrom("Event")
      .select("id")
      .where("customerId", "=", a.customerId)
      .where("eventType", "=", "sign.signer.requestOpened")
      .where((eb) => eb("occurredAt", ">", secondsBefore(eb.fn<Date>("now"), a.withinSeconds)))
      // The id as text in SQL, not in the build: a build passes values on untouched (reuse: "shape").
      .where((eb) => eb(jsonText(eb.ref("payload"), "id"), "=", eb.cast<string>(eb.val(a.signerId), "text")))
      .limit(1),
  { reuse: "shape" },
);

/** The signer's first opening of a signing request (later ones leave it as it is). */
export const markRequestOpenedSql = defineStatement(
  "mark-request-opened",
  { signerId: 1 },
  ({ signerId }) =>
    qb
      .updateTable("Signer")
      .set((eb) => ({ requestOpenedAt: eb.fn<Date>("now") }))
      .where("id", "=", signerId)
      .where("requestOpenedAt", "is", null),
  { reuse: "shape" },
);
