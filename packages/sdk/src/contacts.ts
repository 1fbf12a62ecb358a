import { z } from "zod";
import type { Api } from "./api";
import { listQuery, type PageQuery } from "./list-query";

export const CONTACTS_PATH = "/api/v3/contacts";

export const ZContact = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  onBehalfOf: z.string().nullable(),
  /** Unix seconds. */
  created: z.number(),
  updated: z.number(),
});
/** A contact of the customer's address book. */
export type Contact = z.infer<typeof ZContact>;

export interface ContactListQuery extends PageQuery {
  /** Contacts whose name contains this, ignoring case. */
  name?: string;
  /** The contact with this email, ignoring case. */
  email?: string;
}

export interface ContactCreate {
  name: string;
  email: string;
  onBehalfOf?: string | null;
}

export type ContactUpdate = Partial<ContactCreate>;

const byId = (id: number) => `${CONTACTS_PATH}/${encodeURIComponent(String(id))}`;

/**
 * The customer's contacts: one per email (ignoring case); signers and copy recipients stored with
 * `storeAsContact` land here too.
 */
export class Contacts {
  constructor(private readonly api: Api) {}

  list(query: ContactListQuery = {}): Promise<Contact[]> {
    const { name, email, ...paging } = query;
    return this.api.json({ method: "GET", path: `${CONTACTS_PATH}${listQuery({ name, email }, paging)}`, auth: "x-auth-token" }, z.array(ZContact));
  }

  get(id: number): Promise<Contact> {
    return this.api.json({ method: "GET", path: byId(id), auth: "x-auth-token" }, ZContact);
  }

  /** 201; an email another contact has (ignoring case) is a 409 with `errors[0].path` `email`. */
  create(input: ContactCreate): Promise<Contact> {
    return this.api.json({ method: "POST", path: CONTACTS_PATH, auth: "x-auth-token", json: input }, ZContact);
  }

  /** Only the keys given change (onBehalfOf null clears it). */
  update(id: number, change: ContactUpdate): Promise<Contact> {
    return this.api.json({ method: "PUT", path: byId(id), auth: "x-auth-token", json: change }, ZContact);
  }

  delete(id: number): Promise<void> {
    return this.api.empty({ method: "DELETE", path: byId(id), auth: "x-auth-token" });
  }
}
