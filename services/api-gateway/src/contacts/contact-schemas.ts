import { z } from "zod";
import { component } from "../contract/components";
import { ignoredReadOnly, unixTime, ZId } from "../contract/common-schemas";
import { listKeys, once } from "../contract/list-query";

/*
 * Penneo's contacts (sdk-net 4.2.0+ only: Contact `{name, email, onBehalfOf}`, created and changed
 * with `{name, email}`): the customer's address book, also filled by signers and copy recipients
 * stored with storeAsContact. One contact per email per customer, compared case-insensitively.
 */

export const CONTACT_SORTABLE = ["id", "name", "email", "created"] as const;

export const ZContact = component(
  "Contact",
  z.object({
    sdkClassName: z.literal("Contact").describe("The entity's class, as Penneo's SDKs read embedded entities"),
    id: z.int(),
    name: z.string(),
    email: z.string().describe("As given; unique per customer ignoring case"),
    onBehalfOf: z.string().nullable(),
    created: unixTime(),
    updated: unixTime(),
  }),
);

export const ZContactList = component("ContactList", z.array(ZContact).describe("A JSON array, paged as the list's query asks"));

export const ZContactParams = z.object({ id: ZId });

const ZName = z
  .string()
  .max(255)
  .refine((v) => v.trim().length > 0, "must not be empty");
const ZEmail = z.email().max(320);
const ZOnBehalfOf = z.string().max(255).nullable();

const READ_ONLY_KEYS = {
  id: ignoredReadOnly("The contact's id"),
  sdkClassName: ignoredReadOnly("The entity's class"),
  created: ignoredReadOnly("Creation time"),
  updated: ignoredReadOnly("Last change"),
};

export const ZContactCreate = component(
  "ContactCreate",
  z
    .strictObject({
      name: ZName.describe("1 to 255 characters"),
      email: ZEmail.describe("An email address no other contact of the customer has (ignoring case)"),
      onBehalfOf: ZOnBehalfOf.optional().describe("Whom the contact signs for"),
      ...READ_ONLY_KEYS,
    })
    .describe("sdk-net sends `{name, email}`"),
);

export const ZContactUpdate = component(
  "ContactUpdate",
  z
    .strictObject({ name: ZName.optional(), email: ZEmail.optional(), onBehalfOf: ZOnBehalfOf.optional(), ...READ_ONLY_KEYS })
    .describe("Partial: an absent key is unchanged; onBehalfOf null clears it"),
);

export const ZContactListQuery = z.strictObject({
  ...listKeys(CONTACT_SORTABLE),
  name: z.preprocess(once, z.string().max(255)).optional().describe("Contacts whose name contains this, ignoring case"),
  email: z.preprocess(once, z.string().max(320)).optional().describe("The contact with this email, ignoring case"),
});

export type ContactView = z.input<typeof ZContact>;
