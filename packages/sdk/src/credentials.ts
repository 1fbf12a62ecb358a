import { z } from "zod";
import type { Api } from "./api";

/** The customer's API credentials (OAuth clients with an API key pair): listed, created, rotated, revoked. */
export const CREDENTIALS_PATH = "/api/v3/credentials";

export const ZCredential = z.object({
  id: z.union([z.number(), z.string()]),
  clientId: z.string(),
  apiKey: z.string().nullable(),
  userId: z.number().nullable().optional(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type Credential = z.infer<typeof ZCredential>;

/** The answer to a create or a rotation: the secrets, shown this once. */
export const ZNewCredential = z.object({
  id: z.union([z.number(), z.string()]),
  clientId: z.string(),
  clientSecret: z.string(),
  apiKey: z.string(),
  apiSecret: z.string(),
  createdAt: z.string(),
});
export type NewCredential = z.infer<typeof ZNewCredential>;

const byId = (id: Credential["id"]) => `${CREDENTIALS_PATH}/${encodeURIComponent(String(id))}`;

export class ApiCredentials {
  constructor(private readonly api: Api) {}

  list(): Promise<Credential[]> {
    return this.api.json({ method: "GET", path: CREDENTIALS_PATH, auth: "x-auth-token" }, z.array(ZCredential));
  }

  create(): Promise<NewCredential> {
    return this.api.json({ method: "POST", path: CREDENTIALS_PATH, auth: "x-auth-token" }, ZNewCredential);
  }

  rotate(id: Credential["id"]): Promise<NewCredential> {
    return this.api.json({ method: "POST", path: `${byId(id)}/rotate`, auth: "x-auth-token" }, ZNewCredential);
  }

  revoke(id: Credential["id"]): Promise<void> {
    return this.api.empty({ method: "DELETE", path: byId(id), auth: "x-auth-token" });
  }
}
