import { run, runOne, sqlPool, violatesUnique, type Contact } from "@esign/db";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import {
  type ContactListArgs,
  contactByEmailSql,
  contactSql,
  deleteContactSql,
  insertContactSql,
  listContactsSql,
  updateContactSql,
} from "./contact-store.sql";

/*
 * The contacts API's reads and writes, each one statement on the pool. A second contact for an email
 * the customer has (ignoring case) is refused with 409 naming `email` and the contact that has it:
 * the SDK expects a create to answer the entity it made, and an upsert would silently change
 * someone else's entry of the address book.
 */

export const contactNotFound = () => new AppError("not_found", "Contact not found");

const duplicateEmail = (existing: number | undefined) => {
  const message = existing === undefined ? "another contact has this email" : `contact ${existing} has this email`;
  return new AppError("conflict", `A contact with this email exists already (${message})`, [{ path: "email", code: "duplicate_email", message }]);
};

/** PostgreSQL's unique_violation on (customerId, lower(email)). */
const isDuplicateEmail = (err: unknown): boolean => violatesUnique(err, "Contact_customerId_emailKey_key");

/** A contact as the API reads it (its generated emailKey is the index's business). */
export type ContactRecord = Omit<Contact, "emailKey">;

export type ContactChange = Partial<Pick<Contact, "name" | "email" | "onBehalfOf">>;

export async function getContact(ctx: GatewayContext, customerId: number, id: number): Promise<ContactRecord> {
  const contact = await runOne(sqlPool(ctx.db), contactSql, { id, customerId });
  if (!contact) throw contactNotFound();
  return contact;
}

export function listContacts(ctx: GatewayContext, args: ContactListArgs): Promise<ContactRecord[]> {
  return run(sqlPool(ctx.db), listContactsSql, args);
}

export async function createContact(
  ctx: GatewayContext,
  customerId: number,
  c: { name: string; email: string; onBehalfOf: string | null },
): Promise<ContactRecord> {
  const pool = sqlPool(ctx.db);
  const created = await runOne(pool, insertContactSql, { customerId, ...c });
  if (created) return created;
  throw duplicateEmail((await runOne(pool, contactByEmailSql, { customerId, email: c.email }))?.id);
}

export async function updateContact(ctx: GatewayContext, customerId: number, id: number, change: ContactChange): Promise<ContactRecord> {
  const pool = sqlPool(ctx.db);
  try {
    const updated = await runOne(pool, updateContactSql, { id, customerId, name: change.name, email: change.email, onBehalfOf: change.onBehalfOf });
    if (!updated) throw contactNotFound();
    return updated;
  } catch (err) {
    if (!isDuplicateEmail(err) || change.email === undefined) throw err;
    throw duplicateEmail((await runOne(pool, contactByEmailSql, { customerId, email: change.email }))?.id);
  }
}

export async function deleteContact(ctx: GatewayContext, customerId: number, id: number): Promise<void> {
  if (!(await runOne(sqlPool(ctx.db), deleteContactSql, { id, customerId }))) throw contactNotFound();
}
