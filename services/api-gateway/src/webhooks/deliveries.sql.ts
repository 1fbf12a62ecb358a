import { defineStatement, isoMicroseconds, qb } from "@esign/db";
import type { AttemptPosition } from "./delivery-cursor";

/**
 * One page of a subscription's attempt log, newest first; ties on createdAt go by id ascending, the
 * order of the (subscriptionId, createdAt DESC, id) index. `position` is createdAt at full precision,
 * for the next page's cursor.
 *
 * Locks: nothing: attempts are only ever added, and a page is a snapshot.
 */
export const attemptPageSql = defineStatement(
  "webhook-attempt-page",
  {
    subscriptionId: "00000000-0000-4000-8000-000000000000",
    limit: 50,
    after: { createdAt: "2026-01-01T00:00:00.000001Z", id: "00000000-0000-4000-8000-000000000000" } as AttemptPosition | undefined,
  },
  ({ subscriptionId, limit, after }) =>
    qb
      .selectFrom("WebhookAttempt")
      .select((eb) => [
        eb.cast<string>("id", "text").as("id"),
        eb.cast<string>("eventId", "text").as("eventId"),
        "attemptNumber",
        "outcome",
        "httpStatus",
        "cause",
        "durationMs",
        "nextAttemptAt",
        "createdAt",
        isoMicroseconds(eb.ref("createdAt")).as("position"),
      ])
      .where("subscriptionId", "=", subscriptionId)
      .$if(after !== undefined, (q) =>
        q.where((eb) => {
          const at = eb.cast<Date>(eb.val(after!.createdAt), "timestamptz");
          return eb.and([eb("createdAt", "<=", at), eb.or([eb("createdAt", "<", at), eb("id", ">", after!.id)])]);
        }),
      )
      .orderBy("createdAt", "desc")
      .orderBy("id", "asc")
      .limit(limit),
);

/**
 * The delivery of one event to one subscription, if there is one (a redelivery may only be asked
 * for an event the subscription was sent).
 *
 * Locks: nothing: the reset that follows (requestRedelivery, an UPDATE) takes the row lock it needs.
 */
export const deliveryOfEventSql = defineStatement(
  "webhook-delivery-of-event",
  { subscriptionId: "00000000-0000-4000-8000-000000000000", eventId: "00000000-0000-4000-8000-000000000000" },
  ({ subscriptionId, eventId }) => qb.selectFrom("WebhookDelivery").select("id").where("eventId", "=", eventId).where("subscriptionId", "=", subscriptionId),
  { reuse: "shape" },
);
