import { run, runOne, type Tx } from "@esign/db";
import { customerAdminEmailsSql, lastFailedAttemptSql } from "./notify-subscription-disabled.sql";
import { dedupeAddresses } from "./recipients";
import type { LastFailedAttempt } from "./subscription-disabled-message";

/** Who a subscription's notices (failing, disabled) go to: its creator and every administrator of the customer, once each. */
export async function noticeRecipients(tx: Tx, customerId: number, creatorEmail: string | null): Promise<string[]> {
  const admins = await run(tx, customerAdminEmailsSql, { customerId });
  return dedupeAddresses([creatorEmail, ...admins.map((a) => a.email)]);
}

/** The subscription's last failed attempt, for the notice to say what went wrong. */
export async function lastFailureOf(tx: Tx, subscriptionId: string): Promise<LastFailedAttempt | undefined> {
  const last = await runOne(tx, lastFailedAttemptSql, { subscriptionId });
  return last ? { cause: last.cause, httpStatus: last.httpStatus, at: last.createdAt } : undefined;
}
