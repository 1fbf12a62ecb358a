import { z } from "zod";
import type { Api } from "./api";

/** The signed-in person's session and the customer's users, company and API credentials (/api/v3). */
export const SESSION_PATH = "/api/v3/session";
export const USERS_PATH = "/api/v3/users";
export const COMPANY_PATH = "/api/v3/company";
export const CREDENTIALS_PATH = "/api/v3/credentials";

export const ZUserRole = z.enum(["admin", "member"]);
export const ZUser = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  role: ZUserRole,
  customerId: z.number(),
  customerName: z.string(),
});
export type User = z.infer<typeof ZUser>;
export const ZSession = z.object({ user: ZUser, csrfToken: z.string() });
export type Session = z.infer<typeof ZSession>;

/** A user as the customer's list shows it (the list may carry more fields than the session's). */
export const ZUserListItem = ZUser.partial({ customerId: true, customerName: true }).passthrough();
export type UserListItem = z.infer<typeof ZUserListItem>;

export const ZInvitation = z
  .object({ email: z.string(), role: ZUserRole, name: z.string().nullable().optional(), customerName: z.string().optional() })
  .passthrough();
export type Invitation = z.infer<typeof ZInvitation>;

export const ZEboksChannel = z.enum(["none", "requested", "granted"]);
export const ZCompany = z.object({
  id: z.number(),
  name: z.string(),
  language: z.string(),
  signingMethods: z.array(z.string()),
  recycleBinDays: z.number(),
  channels: z.object({ email: z.boolean(), eboks: ZEboksChannel }),
});
export type Company = z.infer<typeof ZCompany>;
export type CompanyUpdate = Partial<Pick<Company, "name" | "language" | "signingMethods" | "recycleBinDays">>;

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
/** The answer to a create or rotate: the secrets, shown this once. */
export const ZNewCredential = z.object({
  id: z.union([z.number(), z.string()]),
  clientId: z.string(),
  clientSecret: z.string(),
  apiKey: z.string(),
  apiSecret: z.string(),
  createdAt: z.string(),
});
export type NewCredential = z.infer<typeof ZNewCredential>;

const seg = (v: string | number) => encodeURIComponent(String(v));

export class Sessions {
  constructor(private readonly api: Api) {}

  signIn(email: string, password: string): Promise<Session> {
    return this.api.json({ method: "POST", path: SESSION_PATH, auth: "none", json: { email, password } }, ZSession);
  }

  /** The session of the cookie; EsignApiError 401 when there is none. */
  current(): Promise<Session> {
    return this.api.json({ method: "GET", path: SESSION_PATH, auth: "x-auth-token" }, ZSession);
  }

  signOut(): Promise<void> {
    return this.api.empty({ method: "DELETE", path: SESSION_PATH, auth: "x-auth-token" });
  }
}

export class Users {
  constructor(private readonly api: Api) {}

  async list(): Promise<UserListItem[]> {
    const answer = await this.api.json(
      { method: "GET", path: USERS_PATH, auth: "x-auth-token" },
      z.union([z.array(ZUserListItem), z.object({ items: z.array(ZUserListItem) })]),
    );
    return Array.isArray(answer) ? answer : answer.items;
  }

  update(id: number, patch: { name?: string; role?: User["role"]; active?: boolean }): Promise<UserListItem> {
    return this.api.json({ method: "PATCH", path: `${USERS_PATH}/${seg(id)}`, auth: "x-auth-token", json: patch }, ZUserListItem);
  }

  /** Mails an invitation link (/app/invite/<token>). */
  invite(input: { email: string; role: User["role"]; name?: string }): Promise<unknown> {
    return this.api.json({ method: "POST", path: `${USERS_PATH}/invitations`, auth: "x-auth-token", json: input }, z.unknown());
  }

  getInvitation(token: string): Promise<Invitation> {
    return this.api.json({ method: "GET", path: `/api/v3/invitations/${seg(token)}`, auth: "none" }, ZInvitation);
  }

  acceptInvitation(token: string, input: { name: string; password: string }): Promise<unknown> {
    return this.api.json({ method: "POST", path: `/api/v3/invitations/${seg(token)}/accept`, auth: "none", json: input }, z.unknown());
  }
}

export class CompanySettings {
  constructor(private readonly api: Api) {}

  get(): Promise<Company> {
    return this.api.json({ method: "GET", path: COMPANY_PATH, auth: "x-auth-token" }, ZCompany);
  }

  update(patch: CompanyUpdate): Promise<Company> {
    return this.api.json({ method: "PATCH", path: COMPANY_PATH, auth: "x-auth-token", json: patch }, ZCompany);
  }

  /** Asks the platform operator for the e-Boks channel (granted through the CLI). */
  requestEboks(): Promise<void> {
    return this.api.empty({ method: "POST", path: `${COMPANY_PATH}/channels/eboks/request`, auth: "x-auth-token" });
  }

  folderShares(folderId: number): Promise<{ userIds: number[] }> {
    return this.api.json({ method: "GET", path: `/api/v3/folders/${seg(folderId)}/shares`, auth: "x-auth-token" }, z.object({ userIds: z.array(z.number()) }));
  }

  shareFolder(folderId: number, userIds: number[]): Promise<unknown> {
    return this.api.json({ method: "PUT", path: `/api/v3/folders/${seg(folderId)}/shares`, auth: "x-auth-token", json: { userIds } }, z.unknown());
  }
}

export class ApiCredentials {
  constructor(private readonly api: Api) {}

  list(): Promise<Credential[]> {
    return this.api.json({ method: "GET", path: CREDENTIALS_PATH, auth: "x-auth-token" }, z.array(ZCredential));
  }

  create(): Promise<NewCredential> {
    return this.api.json({ method: "POST", path: CREDENTIALS_PATH, auth: "x-auth-token" }, ZNewCredential);
  }

  rotate(id: Credential["id"]): Promise<NewCredential> {
    return this.api.json({ method: "POST", path: `${CREDENTIALS_PATH}/${seg(id)}/rotate`, auth: "x-auth-token" }, ZNewCredential);
  }

  revoke(id: Credential["id"]): Promise<void> {
    return this.api.empty({ method: "DELETE", path: `${CREDENTIALS_PATH}/${seg(id)}`, auth: "x-auth-token" });
  }
}
