import { z } from "zod";
import { component } from "../contract/components";
import { isoTime, ZId } from "../contract/common-schemas";

/*
 * A customer's API credentials (issue 26, item 11): each is a client id and secret (token grants) and
 * an API key and secret (api_keys grant, WSSE). Secrets are shown once, when made or rotated.
 */

export const ZCredential = component(
  "Credential",
  z.object({
    id: z.int(),
    clientId: z.string(),
    apiKey: z.string(),
    userId: z.int().describe("The user the credential acts as"),
    createdAt: isoTime(),
    revokedAt: isoTime().nullable().describe("Set once revoked: its secrets and every token issued for it stopped working then"),
    lastUsedAt: isoTime().nullable().describe("When a token was last issued for it or it last authenticated a WSSE request (to the minute)"),
  }),
);

export const ZCredentialList = component("CredentialList", z.array(ZCredential).describe("Every credential of the customer, revoked ones too, oldest first"));

export const ZIssuedCredential = component(
  "IssuedCredential",
  z.object({
    id: z.int(),
    clientId: z.string(),
    clientSecret: z.string().describe("Shown this once; stored as a hash"),
    apiKey: z.string(),
    apiSecret: z.string().describe("Shown this once"),
    createdAt: isoTime(),
  }),
);

export const ZCredentialParams = z.object({ id: ZId });

export type CredentialView = z.infer<typeof ZCredential>;
export type IssuedCredentialView = z.infer<typeof ZIssuedCredential>;
