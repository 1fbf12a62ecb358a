import { qb } from "./typed-sql/builder";
import { unnestRowsInOrder } from "./typed-sql/expressions";
import { run, type SqlRunner } from "./typed-sql/run";
import { defineStatement } from "./typed-sql/statement";

/*
 * The customer's contacts that people of its case files become (`storeAsContact`): signers with an
 * email who ask for it, and copy recipients (who ask for it by default). Shared by every writer of
 * such people - the casefile-worker's create statement (a CTE of it) and the gateway's routes that
 * add a signer or a copy recipient later (storeContacts, in their transaction) - so that all store
 * them the same way:
 *
 * - one contact per email per customer, compared case-insensitively (the unique key is on a
 *   generated lower(email) column, migration 20261126120000);
 * - an email that already has a contact changes nothing: the contact keeps its id, name and
 *   onBehalfOf (the customer may have corrected them through PUT contacts/{id}; a case file typed
 *   later never overwrites the address book);
 * - within one batch the first person with an email wins.
 */

/** Someone to keep as a contact. */
export interface ContactPerson {
  name: string;
  email: string;
  onBehalfOf?: string | null;
}

/** A Contact row as the insert takes it. */
export interface ContactRow {
  customerId: number;
  name: string;
  email: string;
  onBehalfOf: string | null;
}

/** The rows to insert for these people: one per email (case-insensitively), the first one's. */
export function contactRows(customerId: number, people: readonly ContactPerson[]): ContactRow[] {
  const seen = new Set<string>();
  const rows: ContactRow[] = [];
  for (const p of people) {
    const key = p.email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push({ customerId, name: p.name, email: p.email, onBehalfOf: p.onBehalfOf ?? null });
  }
  return rows;
}

/**
 * The INSERT of contact rows, an email that already has a contact skipped: a statement of its own
 * (storeContactsSql) or a data-modifying CTE of a larger one (the case file's create). The rows come
 * from one array parameter per column (one text for any number of rows). An email with a contact is
 * filtered out before the insert (NOT EXISTS), so no serial id is drawn for it (ON CONFLICT alone
 * would burn one per repeated person, on every create that names them); ON CONFLICT still settles a
 * race with another insert of the same email.
 */
export function contactInsert(rows: readonly ContactRow[]) {
  const people = unnestRowsInOrder("p", {
    customerId: { values: rows.map((r) => r.customerId), type: "int" },
    name: { values: rows.map((r) => r.name), type: "text" },
    email: { values: rows.map((r) => r.email), type: "text" },
    onBehalfOf: { values: rows.map((r) => r.onBehalfOf), type: "text" },
  });
  return qb
    .insertInto("Contact")
    .columns(["customerId", "name", "email", "onBehalfOf"])
    .expression(
      qb
        .selectFrom(people)
        .select(["p.customerId", "p.name", "p.email", "p.onBehalfOf"])
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("Contact as c")
                .select("c.id")
                .whereRef("c.customerId", "=", "p.customerId")
                .where((c) => c("c.emailKey", "=", c.fn<string>("lower", [c.ref("p.email")]))),
            ),
          ),
        )
        .orderBy("p.ordinal"),
    )
    .onConflict((oc) => oc.columns(["customerId", "emailKey"]).doNothing());
}

/**
 * Stores contacts, skipping emails the customer already has a contact for.
 *
 * Locks: the new Contact rows; an insert racing another of the same (customer, email) waits for it
 * on the unique index, then skips (ON CONFLICT DO NOTHING), so two case files storing one person
 * at once make one contact.
 */
export const storeContactsSql = defineStatement(
  "store-contacts",
  { rows: [{ customerId: 1, name: "n", email: "n@example.com", onBehalfOf: null as string | null }] },
  (a: { rows: ContactRow[] }) => contactInsert(a.rows),
  { reuse: "shape" },
);

/**
 * Keeps these people as the customer's contacts, in the caller's transaction (or on its own):
 * the writer for signers and copy recipients added after the create with `storeAsContact`.
 */
export async function storeContacts(on: SqlRunner, customerId: number, people: readonly ContactPerson[]): Promise<void> {
  const rows = contactRows(customerId, people);
  if (rows.length === 0) return;
  await run(on, storeContactsSql, { rows });
}
