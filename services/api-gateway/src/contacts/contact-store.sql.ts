import { contactInsert, defineStatement, qb } from "@esign/db";
import type { ListWindow } from "../contract/list-query";
import type { CONTACT_SORTABLE } from "./contact-schemas";

/*
 * The contacts API's statements. The unique index on (customerId, lower(email)) decides a
 * duplicate, whoever writes: a create skips (ON CONFLICT DO NOTHING, then says who has the email),
 * an update that takes another contact's email fails on it (contact-store.ts answers 409).
 */

const CONTACT_COLUMNS = ["id", "customerId", "name", "email", "onBehalfOf", "createdAt", "updatedAt"] as const;

/**
 * A contact of the customer, or no row.
 *
 * Locks: nothing (a plain read).
 */
export const contactSql = defineStatement(
  "contact-of-customer",
  { id: 1, customerId: 1 },
  ({ id, customerId }) => qb.selectFrom("Contact").select(CONTACT_COLUMNS).where("id", "=", id).where("customerId", "=", customerId),
  { reuse: "shape" },
);

/**
 * The customer's contact with this email (ignoring case, as the unique index compares), or no row.
 *
 * Locks: nothing (a plain read).
 */
export const contactByEmailSql = defineStatement(
  "contact-by-email",
  { customerId: 1, email: "a@example.com" },
  ({ customerId, email }) =>
    qb
      .selectFrom("Contact")
      .select(CONTACT_COLUMNS)
      .where("customerId", "=", customerId)
      .where((eb) => eb("emailKey", "=", eb.fn<string>("lower", [eb.val(email)]))),
  { reuse: "shape" },
);

/**
 * A new contact; no row when the customer has one with this email already.
 *
 * Locks: the new row; a create racing another of the same email waits for it on the unique index,
 * then skips.
 */
export const insertContactSql = defineStatement(
  "insert-contact",
  { customerId: 1, name: "n", email: "n@example.com", onBehalfOf: null as string | null },
  (row) => contactInsert([row]).returning(CONTACT_COLUMNS),
  { reuse: "shape" },
);

/**
 * A contact changed (only the fields given); no row when it is not the customer's.
 *
 * Locks: the Contact row (the UPDATE's) until the statement commits.
 */
export const updateContactSql = defineStatement(
  "update-contact",
  { id: 1, customerId: 1, name: "n" as string | undefined, email: "e@example.com" as string | undefined, onBehalfOf: null as string | null | undefined },
  (a) =>
    qb
      .updateTable("Contact")
      .set((eb) => ({
        ...(a.name !== undefined ? { name: a.name } : {}),
        ...(a.email !== undefined ? { email: a.email } : {}),
        ...(a.onBehalfOf !== undefined ? { onBehalfOf: a.onBehalfOf } : {}),
        updatedAt: eb.fn<Date>("now"),
      }))
      .where("id", "=", a.id)
      .where("customerId", "=", a.customerId)
      .returning(CONTACT_COLUMNS),
  { reuse: "shape" },
);

/**
 * Deletes a contact of the customer; answers its id, or no row.
 *
 * Locks: the Contact row (the DELETE's) until the statement commits.
 */
export const deleteContactSql = defineStatement(
  "delete-contact",
  { id: 1, customerId: 1 },
  ({ id, customerId }) => qb.deleteFrom("Contact").where("id", "=", id).where("customerId", "=", customerId).returning("id"),
  { reuse: "shape" },
);

const CONTACT_ORDER = { id: "id", name: "name", email: "emailKey", created: "createdAt" } as const;

export interface ContactListArgs {
  customerId: number;
  nameContains?: string;
  email?: string;
  window: ListWindow<(typeof CONTACT_SORTABLE)[number]>;
}

/**
 * One page of the customer's contacts (one row more than the page, which tells there is a next
 * one). Built per call: the sort fields pick the columns.
 *
 * Locks: nothing (a plain read).
 */
export const listContactsSql = defineStatement(
  "list-contacts",
  {
    customerId: 1,
    nameContains: "%a%",
    email: "a@example.com",
    window: { offset: 0, limit: 10, page: 1, sort: [{ field: "name", direction: "asc" }] },
  } as ContactListArgs,
  (a: ContactListArgs) => {
    let q = qb
      .selectFrom("Contact")
      .select(CONTACT_COLUMNS)
      .where("customerId", "=", a.customerId)
      .$if(a.nameContains !== undefined, (w) => w.where("name", "ilike", a.nameContains!))
      .$if(a.email !== undefined, (w) => w.where((eb) => eb("emailKey", "=", eb.fn<string>("lower", [eb.val(a.email!)]))));
    for (const { field, direction } of a.window.sort) q = q.orderBy(CONTACT_ORDER[field], direction);
    if (!a.window.sort.some((s) => s.field === "id")) q = q.orderBy("id", "asc");
    return q.offset(a.window.offset).limit(a.window.limit + 1);
  },
);
