import { defineStatement, qb } from "@esign/db";

/*
 * The statements of the "subscription disabled" mail (notify-subscription-disabled.ts). Its
 * transaction first takes an advisory lock on the subscription (advisoryXactLock), so that two
 * copies of the job run one after the other; these statements read and write under that lock.
 */

const ID = "00000000-0000-4000-8000-000000000000";

/**
 * The subscription with what the mail says and decides on: its state (active, disabled when,
 * notified when, deleted), its endpoint and event types, its creator's address, its customer's
 * name and language.
 *
 * Locks: nothing: the advisory lock orders the copies of this job, and the gateway's re-enable must
 * not wait for an SMTP conversation (a disablement after the read moves disabledAt, which the
 * final update checks).
 */
export const subscriptionToNotifySql = defineStatement(
  "subscription-disabled-to-notify",
  { subscriptionId: ID },
  ({ subscriptionId }) =>
    qb
      .selectFrom("WebhookSubscription as s")
      .innerJoin("User as u", "u.id", "s.createdByUserId")
      .innerJoin("Customer as c", "c.id", "s.customerId")
      .select([
        "s.customerId",
        "s.endpoint",
        "s.eventTypes",
        "s.isActive",
        "s.disabledAt",
        "s.disabledNotifiedAt",
        "s.deletedAt",
        "u.email as creatorEmail",
        "c.name as customerName",
        "c.language as customerLanguage",
      ])
      .where("s.id", "=", subscriptionId),
  { reuse: "shape" },
);

/**
 * The addresses of the customer's administrators, oldest account first.
 *
 * Locks: nothing.
 */
export const customerAdminEmailsSql = defineStatement(
  "customer-admin-emails",
  { customerId: 1 },
  ({ customerId }) => qb.selectFrom("User").select("email").where("customerId", "=", customerId).where("isAdmin", "=", true).orderBy("id", "asc"),
  { reuse: "shape" },
);

/**
 * The subscription's last failed attempt (what the mail quotes as the reason).
 *
 * Locks: nothing: attempts are only ever added.
 */
export const lastFailedAttemptSql = defineStatement(
  "subscription-last-failed-attempt",
  { subscriptionId: ID },
  ({ subscriptionId }) =>
    qb
      .selectFrom("WebhookAttempt")
      .select(["cause", "httpStatus", "createdAt"])
      .where("subscriptionId", "=", subscriptionId)
      .where("outcome", "=", "failure")
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(1),
  { reuse: "shape" },
);

/**
 * Records that the disablement of `disabledAt` was told, at `at`: only while disabledAt is still
 * that one, so a disablement after a re-enable meanwhile still gets its own mail.
 *
 * Locks: the subscription's row, by the UPDATE, until the transaction ends (moments: it is the
 * transaction's last statement, after the mail went out).
 */
export const markDisabledNotifiedSql = defineStatement(
  "mark-subscription-disabled-notified",
  { subscriptionId: ID, disabledAt: new Date(0), at: new Date(0) },
  ({ subscriptionId, disabledAt, at }) =>
    qb
      .updateTable("WebhookSubscription")
      .set((eb) => ({ disabledNotifiedAt: at, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", subscriptionId)
      .where("disabledAt", "=", disabledAt),
  { reuse: "shape" },
);
