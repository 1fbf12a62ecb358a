import { z } from "zod";
import type { Api } from "./api";

export const CREDENTIALS_PATH = "/api/v3/credentials";

/** A credential of the customer, as listed: never a secret. */
export const ZApiCredential = z.object({
  id: z.number(),
  clientId: z.string(),
  apiKey: z.string(),
  userId: z.number(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ApiCredential = z.infer<typeof ZApiCredential>;

/** A credential with its secrets: answered once, when it is made or rotated. Store them then. */
export const ZIssuedApiCredential = z.object({
  id: z.number(),
  clientId: z.string(),
  clientSecret: z.string(),
  apiKey: z.string(),
  apiSecret: z.string(),
  createdAt: z.string(),
});
export type IssuedApiCredential = z.infer<typeof ZIssuedApiCredential>;

/** The customer's API credentials; every call needs a credential of one of the customer's admins (403 otherwise). */
export class ApiCredentials {
  constructor(private readonly api: Api) {}

  /** Every credential of the customer, revoked ones too, oldest first. */
  list(): Promise<ApiCredential[]> {
    return this.api.json({ method: "GET", path: CREDENTIALS_PATH, auth: "x-auth-token" }, z.array(ZApiCredential));
  }

  /** A new credential acting as the caller (201), with its secrets. */
  create(): Promise<IssuedApiCredential> {
    return this.api.json({ method: "POST", path: CREDENTIALS_PATH, auth: "x-auth-token" }, ZIssuedApiCredential);
  }

  /** New secrets (client id and API key stay); tokens issued before stop working within seconds. A revoked one is 409. */
  rotate(id: number): Promise<IssuedApiCredential> {
    return this.api.json({ method: "POST", path: `${CREDENTIALS_PATH}/${id}/rotate`, auth: "x-auth-token" }, ZIssuedApiCredential);
  }

  /** Revokes it and every token issued for it (204). Revoking the credential this client uses ends its own access too. */
  revoke(id: number): Promise<void> {
    return this.api.empty({ method: "DELETE", path: `${CREDENTIALS_PATH}/${id}`, auth: "x-auth-token" });
  }
}
