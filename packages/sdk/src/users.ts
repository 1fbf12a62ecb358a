import { z } from "zod";
import type { Api } from "./api";

/*
 * The customer's users, the web application's sign-in, invitations and company settings
 * (docs/api.md, "Users, sessions and the company"). An EsignClient made with `session: true` signs in
 * with `sessions.signIn` and then calls every other route with the session; one made with API
 * credentials acts as the credentials' user, with that user's role.
 */

export const SESSION_PATH = "/api/v3/session";
export const USERS_PATH = "/api/v3/users";
export const COMPANY_PATH = "/api/v3/company";
const INVITATIONS_PATH = "/api/v3/invitations";

const ZRole = z.enum(["admin", "member"]);
export type Role = z.infer<typeof ZRole>;

export const ZSession = z.object({
  user: z.object({ id: z.number(), email: z.string(), name: z.string(), role: ZRole, customerId: z.number(), customerName: z.string() }),
  csrfToken: z.string(),
});
/** The signed-in user, and the CSRF token this client sends with every change. */
export type Session = z.infer<typeof ZSession>;

export const ZSsoConfig = z.object({ enabled: z.boolean(), displayName: z.string().nullable(), startUrl: z.string().nullable() });
/** Whether single sign-on is offered; a browser signs in with it by going to `startUrl` (a navigation, not a call). */
export type SsoConfig = z.infer<typeof ZSsoConfig>;

export const ZUser = z.object({ id: z.number(), email: z.string(), name: z.string(), role: ZRole, createdAt: z.string(), disabledAt: z.string().nullable() });
export type User = z.infer<typeof ZUser>;

export interface UserChange {
  name?: string;
  role?: Role;
  /** true: no sign-in, sessions ended, API tokens refused. */
  disabled?: boolean;
}

export interface InvitationInput {
  email: string;
  role: Role;
  name?: string;
}

const ZInvitation = z.object({ id: z.number(), email: z.string(), role: ZRole, expiresAt: z.string() });
export type Invitation = z.infer<typeof ZInvitation>;
const ZInvitationView = z.object({ email: z.string(), role: ZRole, customerName: z.string(), expiresAt: z.string() });
/** An open invitation as its link shows it. */
export type InvitationView = z.infer<typeof ZInvitationView>;

const ZEboks = z.enum(["none", "requested", "granted"]);
export const ZCompany = z.object({
  id: z.number(),
  name: z.string(),
  language: z.string(),
  signingMethods: z.array(z.string()),
  recycleBinDays: z.number(),
  channels: z.object({ email: z.literal(true), eboks: ZEboks }),
});
export type Company = z.infer<typeof ZCompany>;

/** The company as every user reads it (members too): what creating a case file needs. */
export const ZCompanyProfile = ZCompany.pick({ id: true, name: true, language: true, signingMethods: true });
export type CompanyProfile = z.infer<typeof ZCompanyProfile>;

export interface CompanyChange {
  name?: string;
  language?: string;
  /** Among the secure methods the platform offers (400 names any other). */
  signingMethods?: string[];
  recycleBinDays?: number;
}

const token = (t: string) => encodeURIComponent(t);

/** Sign-in, sign-out and invitations: the session's cookie is set by the answer, its CSRF token kept here. */
export class Sessions {
  constructor(private readonly api: Api) {}

  private keep(session: Session, res?: Response): Session {
    this.api.session.csrfToken = session.csrfToken;
    // Readable only outside a browser (Node): there the cookie is sent back by this client.
    const cookie = /^(esign_session=[^;]*)/.exec(res?.headers.get("set-cookie") ?? "")?.[1];
    if (cookie) this.api.session.cookie = cookie;
    return session;
  }

  /** 401 for a wrong email or password (alike); 429 with retryAfterSeconds when locked out. */
  async signIn(email: string, password: string): Promise<Session> {
    const res = await this.api.send({ method: "POST", path: SESSION_PATH, auth: "none", json: { email, password } });
    return this.keep(ZSession.parse(await res.json()), res);
  }

  /** The current session (after a page load: the cookie is there, the CSRF token is read back). 401 when signed out. */
  async current(): Promise<Session> {
    return this.keep(await this.api.json({ method: "GET", path: SESSION_PATH, auth: "x-auth-token" }, ZSession));
  }

  /** Whether the web application offers single sign-on (SSO_OIDC_ISSUER), and the provider's name for the button. */
  ssoConfig(): Promise<SsoConfig> {
    return this.api.json({ method: "GET", path: `${SESSION_PATH}/sso`, auth: "none" }, ZSsoConfig);
  }

  async signOut(): Promise<void> {
    await this.api.empty({ method: "DELETE", path: SESSION_PATH, auth: "x-auth-token" });
    this.api.session.csrfToken = undefined;
    this.api.session.cookie = undefined;
  }

  /** An open invitation by its link's token; 404 when unknown, accepted or expired. */
  invitation(invitationToken: string): Promise<InvitationView> {
    return this.api.json({ method: "GET", path: `${INVITATIONS_PATH}/${token(invitationToken)}`, auth: "none" }, ZInvitationView);
  }

  /** Makes the invited user (password 12 to 256 characters) and signs them in. */
  async acceptInvitation(invitationToken: string, input: { name: string; password: string }): Promise<Session> {
    const res = await this.api.send({ method: "POST", path: `${INVITATIONS_PATH}/${token(invitationToken)}/accept`, auth: "none", json: input });
    return this.keep(ZSession.parse(await res.json()), res);
  }
}

/** The customer's users: an admin sees and changes all, a member sees only themselves. */
export class Users {
  constructor(private readonly api: Api) {}

  list(): Promise<User[]> {
    return this.api.json({ method: "GET", path: USERS_PATH, auth: "x-auth-token" }, z.array(ZUser));
  }

  /** Admins only (403); the last admin cannot be demoted or disabled (409). */
  update(id: number, change: UserChange): Promise<User> {
    return this.api.json({ method: "PATCH", path: `${USERS_PATH}/${encodeURIComponent(String(id))}`, auth: "x-auth-token", json: change }, ZUser);
  }

  /** Admins only: mails a link good for 7 days; 409 when the email already has a user. */
  invite(input: InvitationInput): Promise<Invitation> {
    return this.api.json({ method: "POST", path: `${USERS_PATH}/invitations`, auth: "x-auth-token", json: input }, ZInvitation);
  }
}

/** The company settings: admins read and change them; every user reads the profile. */
export class CompanySettings {
  constructor(private readonly api: Api) {}

  /** Admins only (a member is refused, 403): members read `profile()`. */
  get(): Promise<Company> {
    return this.api.json({ method: "GET", path: COMPANY_PATH, auth: "x-auth-token" }, ZCompany);
  }

  /** Name, default language and enabled signing methods: every user of the customer. */
  profile(): Promise<CompanyProfile> {
    return this.api.json({ method: "GET", path: `${COMPANY_PATH}/profile`, auth: "x-auth-token" }, ZCompanyProfile);
  }

  update(change: CompanyChange): Promise<Company> {
    return this.api.json({ method: "PATCH", path: COMPANY_PATH, auth: "x-auth-token", json: change }, ZCompany);
  }

  /** Asks the platform operator for the e-Boks channel (state `requested` until granted). */
  requestEboks(): Promise<Company> {
    return this.api.json({ method: "POST", path: `${COMPANY_PATH}/channels/eboks/request`, auth: "x-auth-token" }, ZCompany);
  }
}
