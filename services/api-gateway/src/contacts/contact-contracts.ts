import type { PenneoApiVersion } from "../casefiles/casefile-contracts";
import { LIST_LINK_HEADER } from "../contract/list-page";
import { API_AUTH, errors, json, route, TAGS } from "../contract/route";
import { ZContact, ZContactCreate, ZContactList, ZContactListQuery, ZContactParams, ZContactUpdate } from "./contact-schemas";

const AUTH_401 = "Missing or invalid credentials";
const NOT_FOUND = "No such contact for this customer";
const DUPLICATE = "Another contact of the customer has this email (ignoring case); `errors[0].path` is `email`";

/** Penneo's contact paths in one of the API versions its clients use (contact-router.ts serves them). */
export function contactRoutes<V extends PenneoApiVersion>(v: V) {
  const base = { tags: [TAGS.contacts], security: API_AUTH } as const;
  const contacts = `/api/${v}/contacts` as const;
  const contact = `${contacts}/{id}` as const;
  return {
    listContacts: route({
      ...base,
      method: "get",
      path: contacts,
      operationId: `penneo${v}ListContacts`,
      summary: "The customer's contacts",
      description:
        "Filters: `name` (contains, ignoring case), `email` (equal, ignoring case). Paged as Penneo's clients page (`page`/`per_page` " +
        "with a Link header, or `limit`/`offset`); without paging at most LIST_MAX_PAGE_SIZE, in id order unless `sort` says otherwise.",
      request: { query: ZContactListQuery },
      responses: {
        200: {
          description: "A JSON array of contacts",
          content: json(ZContactList),
          headers: LIST_LINK_HEADER,
        },
        ...errors({ 400: "Invalid filter, sort or paging (each named)", 401: AUTH_401 }),
      },
    }),
    createContact: route({
      ...base,
      method: "post",
      path: contacts,
      operationId: `penneo${v}CreateContact`,
      summary: "Add a contact",
      description: "A second contact with the same email (ignoring case) is refused with 409 naming `email`; the existing contact is left as it is.",
      request: { body: { schema: ZContactCreate, mediaTypes: ["application/json"] } },
      responses: {
        201: { description: "The contact, with its id", content: json(ZContact) },
        ...errors({ 400: "Invalid fields (each named)", 401: AUTH_401, 409: DUPLICATE }),
      },
    }),
    getContact: route({
      ...base,
      method: "get",
      path: contact,
      operationId: `penneo${v}GetContact`,
      summary: "Read a contact",
      request: { params: ZContactParams },
      responses: { 200: { description: "The contact", content: json(ZContact) }, ...errors({ 401: AUTH_401, 404: NOT_FOUND }) },
    }),
    updateContact: route({
      ...base,
      method: "put",
      path: contact,
      operationId: `penneo${v}UpdateContact`,
      summary: "Change a contact's name, email or onBehalfOf",
      description: "Partial: only the keys sent change. Keys of a fetched contact sent back (`id`, `sdkClassName`, `created`, `updated`) are ignored.",
      request: { params: ZContactParams, body: { schema: ZContactUpdate, mediaTypes: ["application/json"] } },
      responses: {
        200: { description: "The contact as changed", content: json(ZContact) },
        ...errors({ 400: "Invalid fields (each named)", 401: AUTH_401, 404: NOT_FOUND, 409: DUPLICATE }),
      },
    }),
    deleteContact: route({
      ...base,
      method: "delete",
      path: contact,
      operationId: `penneo${v}DeleteContact`,
      summary: "Delete a contact",
      description: "Case files that named the person keep their signers and copy recipients.",
      request: { params: ZContactParams },
      responses: { 204: { description: "Deleted" }, ...errors({ 401: AUTH_401, 404: NOT_FOUND }) },
    }),
  };
}
