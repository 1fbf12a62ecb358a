import { randomUUID } from "node:crypto";
import { createAdminUser, createApiClient, hashPassword, type CustomerCredentials } from "@esign/accounts";
import { EsignApiError, EsignClient } from "@esign/sdk";
import { closeTestDb, getToken, newCustomer, TEST_ENCRYPTION_KEY, testDb } from "../support/api";
import { runCli } from "../support/cli";
import { startInProcessGateway, type InProcessGateway } from "../support/in-process-gateway";
import { PUBLIC_BASE_URL, startHarness, type Harness } from "../support/notifier-harness";

/*
 * The customer's users through the public API (issue 28, backend): sign-in with the session cookie
 * (its flags, CSRF, lockout), roles and visibility with a session AND with an API token, folder
 * sharing, users and the last admin, invitations by mail (read from the SMTP sink of a real notifier)
 * and their acceptance, company settings and the e-Boks request granted with the CLI. The gateway runs
 * in process on the run's PostgreSQL and Redis, enqueuing on the notifier harness's queue prefix.
 */

let harness: Harness;
let gw: InProcessGateway;
let acme: CustomerCredentials;
let rival: CustomerCredentials;
const PASSWORD = "correct horse battery staple";
const tag = randomUUID().slice(0, 8);
const email = (who: string) => `${who}-${tag}@example.test`;

interface Answer<T = Record<string, unknown>> {
  status: number;
  json: T;
  headers: Headers;
}
interface Auth {
  cookie?: string;
  csrf?: string;
  token?: string;
}

async function call<T = Record<string, unknown>>(method: string, path: string, auth: Auth = {}, body?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (auth.cookie) headers.Cookie = auth.cookie;
  if (auth.csrf) headers["X-CSRF-Token"] = auth.csrf;
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${gw.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as T, headers: res.headers };
}

interface SessionBody {
  user: { id: number; email: string; name: string; role: string; customerId: number; customerName: string };
  csrfToken: string;
}

/** Signs in; the cookie as a browser would send it back, and the CSRF token. */
async function signIn(address: string, password = PASSWORD): Promise<Auth & { body: SessionBody; setCookie: string }> {
  const res = await call<SessionBody>("POST", "/api/v3/session", {}, { email: address, password });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get("set-cookie") ?? "";
  const cookie = /^(esign_session=[^;]+)/.exec(setCookie)?.[1] ?? "";
  return { cookie, csrf: res.json.csrfToken, body: res.json, setCookie };
}

async function newUser(customer: CustomerCredentials, who: string, isAdmin = false): Promise<number> {
  const user = await testDb().user.create({
    data: { customerId: customer.customerId, email: email(who), name: who, isAdmin, passwordHash: await hashPassword(PASSWORD) },
  });
  return user.id;
}

const caseFile = async (customerId: number, userId: number, title: string) =>
  (await testDb().caseFile.create({ data: { customerId, userId, title, status: 1, sentAt: new Date() } })).id;

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { env });

let adminId: number;
let memberA: number;
let memberB: number;

beforeAll(async () => {
  harness = await startHarness("web-users");
  gw = await startInProcessGateway({
    QUEUE_PREFIX: `${process.env.QUEUE_PREFIX ?? "esign-test"}:notifier-web-users`,
    PUBLIC_BASE_URL,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    SIGNIN_FAILURES_PER_EMAIL: "3",
  });
  acme = await newCustomer({ name: `Acme ${tag}` });
  rival = await newCustomer({ name: `Rival ${tag}` });
  adminId = (await createAdminUser(testDb(), { customerId: acme.customerId, email: email("admin"), name: "Ada Admin", password: PASSWORD })).userId;
  memberA = await newUser(acme, "member-a");
  memberB = await newUser(acme, "member-b");
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await harness?.stop();
  await closeTestDb();
});

describe("sign-in", () => {
  it("signs in with email and password: the session body, an HttpOnly SameSite=Strict Secure cookie at /, read back and ended", async () => {
    const s = await signIn(email("ADMIN").replace("ADMIN", "Admin"));
    expect(s.body).toEqual({
      user: { id: adminId, email: email("admin"), name: "Ada Admin", role: "admin", customerId: acme.customerId, customerName: `Acme ${tag}` },
      csrfToken: expect.any(String),
    });
    expect(s.setCookie).toMatch(/^esign_session=[A-Za-z0-9_-]{43}; /);
    for (const flag of ["HttpOnly", "SameSite=Strict", "Path=/", "Secure"]) expect(s.setCookie.split("; ")).toContain(flag);

    const again = await call<SessionBody>("GET", "/api/v3/session", { cookie: s.cookie });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(s.body);
    // Without the cookie there is no session.
    expect((await call("GET", "/api/v3/session")).status).toBe(401);

    expect((await call("DELETE", "/api/v3/session", { cookie: s.cookie })).status).toBe(403);
    const out = await call("DELETE", "/api/v3/session", { cookie: s.cookie, csrf: s.csrf });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/^esign_session=; .*Max-Age=0/);
    expect((await call("GET", "/api/v3/session", { cookie: s.cookie })).status).toBe(401);
    expect((await call("GET", "/api/v3/casefiles", { cookie: s.cookie })).status).toBe(401);
  });

  it("answers a wrong password and an unknown email alike (401), and refuses bad input naming each field", async () => {
    const wrong = await call("POST", "/api/v3/session", {}, { email: email("member-b"), password: "not the password" });
    const unknown = await call("POST", "/api/v3/session", {}, { email: email("nobody"), password: "not the password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.json).toEqual(wrong.json);
    const bad = await call<{ errors: { path: string }[] }>("POST", "/api/v3/session", {}, { email: "no", password: "" });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e) => e.path).sort()).toEqual(["email", "password"]);
  });

  it("locks an email out from an address after SIGNIN_FAILURES_PER_EMAIL failures, counted before the work: parallel guesses too", async () => {
    const victim = await newUser(acme, "victim");
    const guesses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call("POST", "/api/v3/session", {}, { email: email("victim"), password: `wrong guess ${i}` })),
    );
    expect(guesses.map((g) => g.status).sort()).toEqual([401, 401, 401, 429, 429, 429]);
    const locked = await call("POST", "/api/v3/session", {}, { email: email("victim"), password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another email from the same address is not locked out; a success gives its points back.
    for (let i = 0; i < 4; i++) await signIn(email("member-b"));
    expect(victim).toBeGreaterThan(0);
  });
});

describe("CSRF with the session cookie", () => {
  it("refuses an unsafe request without X-CSRF-Token or with another session's (403), and takes it with the right one", async () => {
    const s = await signIn(email("admin"));
    const other = await signIn(email("member-a"));
    expect((await call("POST", "/api/v3/folders", { cookie: s.cookie }, { title: "no token" })).status).toBe(403);
    expect((await call("POST", "/api/v3/folders", { cookie: s.cookie, csrf: other.csrf }, { title: "wrong token" })).status).toBe(403);
    expect((await call("POST", "/api/v3/folders", { cookie: s.cookie, csrf: s.csrf }, { title: `ok ${tag}` })).status).toBe(201);
    // Reads need no token.
    expect((await call("GET", "/api/v3/folders", { cookie: s.cookie })).status).toBe(200);
  });
});

describe("roles and visibility", () => {
  let own: number;
  let othersOwn: number;
  let adminsOwn: number;
  let rivalsOwn: number;

  beforeAll(async () => {
    own = await caseFile(acme.customerId, memberA, `A's ${tag}`);
    othersOwn = await caseFile(acme.customerId, memberB, `B's ${tag}`);
    adminsOwn = await caseFile(acme.customerId, adminId, `Admin's ${tag}`);
    rivalsOwn = await caseFile(rival.customerId, rival.userId, `Rival's ${tag}`);
  });

  const titlesOf = (list: Answer<unknown>) =>
    (list.json as { id: number }[]).map((c) => c.id).filter((id) => [own, othersOwn, adminsOwn, rivalsOwn].includes(id));

  async function memberCredentials(userId: number, who: string): Promise<{ session: Auth; token: Auth }> {
    const client = await createApiClient(testDb(), acme.customerId, userId, TEST_ENCRYPTION_KEY);
    return { session: await signIn(email(who)), token: { token: await getToken(gw.url, client) } };
  }

  it("a member sees only their own case files, with a session and with an API token of theirs; an admin sees all of the customer's", async () => {
    const a = await memberCredentials(memberA, "member-a");
    for (const auth of [a.session, a.token]) {
      expect(titlesOf(await call("GET", "/api/v3/casefiles?per_page=1000", auth)).sort()).toEqual([own]);
      expect((await call("GET", `/api/v3/casefiles/${own}`, auth)).status).toBe(200);
      for (const path of [
        `/api/v3/casefiles/${othersOwn}`,
        `/api/v1/casefiles/${adminsOwn}`,
        `/api/v3/casefiles/${othersOwn}/signers`,
        `/api/v3/casefiles/${othersOwn}/log`,
      ]) {
        expect([path, (await call("GET", path, auth)).status]).toEqual([path, 404]);
      }
      // Changes are refused like reads: the case file does not exist for them.
      const del = await call("DELETE", `/api/v3/casefiles/${othersOwn}`, { ...auth, csrf: a.session.csrf });
      expect(del.status).toBe(404);
    }
    expect((await testDb().caseFile.findUniqueOrThrow({ where: { id: othersOwn } })).deletedAt).toBeNull();

    const admin = await signIn(email("admin"));
    expect(titlesOf(await call("GET", "/api/v3/casefiles?per_page=1000", admin)).sort((x, y) => x - y)).toEqual(
      [own, othersOwn, adminsOwn].sort((x, y) => x - y),
    );
    expect((await call("GET", `/api/v3/casefiles/${othersOwn}`, admin)).status).toBe(200);
    expect((await call("GET", `/api/v3/casefiles/${rivalsOwn}`, admin)).status).toBe(404);
  });

  it("a folder shared with a member makes its case files visible to them; unsharing hides them again; only an admin shares", async () => {
    const admin = await signIn(email("admin"));
    const a = await memberCredentials(memberA, "member-a");
    const folder = await call<{ id: number }>("POST", "/api/v3/folders", { ...admin }, { title: `Shared ${tag}` });
    expect(folder.status).toBe(201);
    const f = folder.json.id;
    expect((await call("POST", `/api/v3/folders/${f}/casefiles/${othersOwn}`, admin)).status).toBe(204);

    expect((await call("GET", `/api/v3/casefiles/${othersOwn}`, a.token)).status).toBe(404);
    expect((await call<unknown[]>("GET", `/api/v3/folders/${f}/casefiles`, a.token)).json).toEqual([]);

    // A member may not share: 403 with a session and with a token.
    expect((await call("PUT", `/api/v3/folders/${f}/shares`, a.session, { userIds: [memberA] })).status).toBe(403);
    expect((await call("PUT", `/api/v3/folders/${f}/shares`, a.token, { userIds: [memberA] })).status).toBe(403);
    const bad = await call<{ errors: { path: string }[] }>("PUT", `/api/v3/folders/${f}/shares`, admin, { userIds: [memberA, rival.userId] });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e) => e.path)).toEqual(["userIds[1]"]);

    const shared = await call("PUT", `/api/v3/folders/${f}/shares`, admin, { userIds: [memberA] });
    expect(shared.status).toBe(200);
    expect(shared.json).toEqual({ userIds: [memberA] });
    expect((await call("GET", `/api/v3/folders/${f}/shares`, a.token)).json).toEqual({ userIds: [memberA] });

    for (const auth of [a.session, a.token]) {
      expect((await call("GET", `/api/v3/casefiles/${othersOwn}`, auth)).status).toBe(200);
      expect(titlesOf(await call("GET", "/api/v3/casefiles?per_page=1000", auth)).sort((x, y) => x - y)).toEqual([own, othersOwn].sort((x, y) => x - y));
      expect((await call<{ id: number }[]>("GET", `/api/v3/folders/${f}/casefiles`, auth)).json.map((c) => c.id)).toEqual([othersOwn]);
    }
    // Member B still sees only their own (the share is A's).
    const b = await signIn(email("member-b"));
    expect(titlesOf(await call("GET", "/api/v3/casefiles?per_page=1000", b))).toEqual([othersOwn]);

    expect((await call("PUT", `/api/v3/folders/${f}/shares`, admin, { userIds: [] })).json).toEqual({ userIds: [] });
    expect((await call("GET", `/api/v3/casefiles/${othersOwn}`, a.token)).status).toBe(404);
  });

  it("a member may not read or configure the company's settings, users or webhooks (403), reads the company's profile and only themselves among users", async () => {
    const a = await memberCredentials(memberA, "member-a");
    for (const auth of [a.session, a.token]) {
      expect((await call("PATCH", "/api/v3/company", auth, { name: "Hijacked" })).status).toBe(403);
      expect((await call("POST", "/api/v3/company/channels/eboks/request", auth)).status).toBe(403);
      expect((await call("PATCH", `/api/v3/users/${memberA}`, auth, { role: "admin" })).status).toBe(403);
      expect((await call("POST", "/api/v3/users/invitations", auth, { email: email("sneaky"), role: "admin" })).status).toBe(403);
      expect((await call("GET", "/webhook/api/v1/subscriptions", auth)).status).toBe(403);
      // The settings are configuration (403); the profile, what creating a case file needs, is everyone's.
      expect((await call("GET", "/api/v3/company", auth)).status).toBe(403);
      const profile = await call<Record<string, unknown>>("GET", "/api/v3/company/profile", auth);
      expect(profile.status).toBe(200);
      expect(Object.keys(profile.json).sort()).toEqual(["id", "language", "name", "signingMethods"]);
      expect(profile.json).toMatchObject({ id: acme.customerId, name: `Acme ${tag}` });
      const users = await call<{ id: number }[]>("GET", "/api/v3/users", auth);
      expect(users.json.map((u) => u.id)).toEqual([memberA]);
    }
    expect((await testDb().customer.findUniqueOrThrow({ where: { id: acme.customerId } })).name).toBe(`Acme ${tag}`);
  });
});

describe("users", () => {
  it("lists the customer's users for an admin; protects the last admin (409); disabling ends sessions and refuses API tokens", async () => {
    const admin = await signIn(email("admin"));
    const list = await call<{ id: number; role: string; disabledAt: string | null }[]>("GET", "/api/v3/users", admin);
    expect(list.json.map((u) => u.id)).toEqual(expect.arrayContaining([acme.userId, adminId, memberA, memberB]));
    expect(list.json.find((u) => u.id === memberA)).toEqual({
      id: memberA,
      email: email("member-a"),
      name: "member-a",
      role: "member",
      createdAt: expect.any(String),
      disabledAt: null,
    });

    // newCustomer's own API admin counts as an administrator: demote it, then the last one is protected.
    expect((await call("PATCH", `/api/v3/users/${acme.userId}`, admin, { role: "member" })).status).toBe(200);
    const last = await call("PATCH", `/api/v3/users/${adminId}`, admin, { role: "member" });
    expect(last.status).toBe(409);
    expect((await call("PATCH", `/api/v3/users/${adminId}`, admin, { disabled: true })).status).toBe(409);
    expect((await call("PATCH", `/api/v3/users/${rival.userId}`, admin, { name: "x" })).status).toBe(404);
    expect((await call("PATCH", `/api/v3/users/${memberB}`, admin, {})).status).toBe(400);

    // With a second admin the first one could step down; B goes back to member (and is renamed) meanwhile.
    expect((await call("PATCH", `/api/v3/users/${memberB}`, admin, { role: "admin" })).json).toMatchObject({ role: "admin" });
    expect((await call("PATCH", `/api/v3/users/${memberB}`, admin, { role: "member", name: "Bee" })).json).toMatchObject({ role: "member", name: "Bee" });

    const victim = await newUser(acme, "to-disable");
    const client = await createApiClient(testDb(), acme.customerId, victim, TEST_ENCRYPTION_KEY);
    const token = await getToken(gw.url, client);
    const session = await signIn(email("to-disable"));
    expect((await call("GET", "/api/v3/casefiles", { token })).status).toBe(200);
    const disabled = await call<{ disabledAt: string | null }>("PATCH", `/api/v3/users/${victim}`, admin, { disabled: true });
    expect(disabled.json.disabledAt).toEqual(expect.any(String));
    expect((await call("GET", "/api/v3/session", session)).status).toBe(401);
    expect((await call("GET", "/api/v3/casefiles", { token })).status).toBe(401);
    expect((await call("POST", "/api/v3/session", {}, { email: email("to-disable"), password: PASSWORD })).status).toBe(401);
    expect((await call("PATCH", `/api/v3/users/${victim}`, admin, { disabled: false })).json).toMatchObject({ disabledAt: null });
    expect((await call("GET", "/api/v3/casefiles", { token })).status).toBe(200);
  });

  it("invites by mail in the customer's language; the link opens the invitation, accepting signs the new user in once", async () => {
    const admin = await signIn(email("admin"));
    await testDb().customer.update({ where: { id: acme.customerId }, data: { language: "da" } });
    const invited = await call<{ id: number; email: string; role: string; expiresAt: string }>("POST", "/api/v3/users/invitations", admin, {
      email: email("newcomer"),
      role: "member",
      name: "New Comer",
    });
    expect(invited.status).toBe(201);
    expect(invited.json).toEqual({ id: expect.any(Number), email: email("newcomer"), role: "member", expiresAt: expect.any(String) });
    const days = (Date.parse(invited.json.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect((await call("POST", "/api/v3/users/invitations", admin, { email: email("MEMBER-A"), role: "member" })).status).toBe(409);

    await harness.finished(`invitation-${invited.json.id}`);
    const [mail] = harness.sink.messagesTo(email("newcomer"));
    expect(mail?.subject).toBe(`Du er inviteret til Acme ${tag} på signeringsplatformen`);
    const link = new RegExp(`${PUBLIC_BASE_URL}/app/invite/([A-Za-z0-9_-]{43})`).exec(mail?.text ?? "");
    expect(link).not.toBeNull();
    const token = link?.[1] ?? "";
    // The token is stored hashed only (and encrypted for the notifier), never in the clear.
    const row = await testDb().userInvitation.findUniqueOrThrow({ where: { id: invited.json.id } });
    expect(JSON.stringify(row)).not.toContain(token);

    expect((await call("GET", `/api/v3/invitations/${token}`)).json).toEqual({
      email: email("newcomer"),
      role: "member",
      customerName: `Acme ${tag}`,
      expiresAt: invited.json.expiresAt,
    });
    expect((await call("GET", `/api/v3/invitations/${"x".repeat(43)}`)).status).toBe(404);
    const short = await call<{ errors: { path: string }[] }>("POST", `/api/v3/invitations/${token}/accept`, {}, { name: "New Comer", password: "short" });
    expect(short.status).toBe(400);
    expect(short.json.errors.map((e) => e.path)).toEqual(["password"]);

    const accepted = await call<SessionBody>("POST", `/api/v3/invitations/${token}/accept`, {}, { name: "New Comer", password: PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.json.user).toMatchObject({ email: email("newcomer"), name: "New Comer", role: "member", customerId: acme.customerId });
    const cookie = /^(esign_session=[^;]+)/.exec(accepted.headers.get("set-cookie") ?? "")?.[1] ?? "";
    expect((await call("GET", "/api/v3/session", { cookie })).json).toMatchObject({ user: { email: email("newcomer") } });
    expect((await call("POST", `/api/v3/invitations/${token}/accept`, {}, { name: "Again", password: PASSWORD })).status).toBe(404);
    expect((await call("GET", `/api/v3/invitations/${token}`)).status).toBe(404);
    await signIn(email("newcomer"));
    await testDb().customer.update({ where: { id: acme.customerId }, data: { language: null } });
  });
});

describe("company", () => {
  it("reads and changes the settings (methods only among the platform's), requests e-Boks (202) and the CLI grants it", async () => {
    const admin = await signIn(email("admin"));
    const before = await call("GET", "/api/v3/company", admin);
    expect(before.json).toEqual({
      id: acme.customerId,
      name: `Acme ${tag}`,
      language: "en",
      signingMethods: [],
      recycleBinDays: 30,
      channels: { email: true, eboks: "none" },
    });
    // The profile is the settings' every-user part.
    expect((await call("GET", "/api/v3/company/profile", admin)).json).toEqual({
      id: acme.customerId,
      name: `Acme ${tag}`,
      language: "en",
      signingMethods: [],
    });
    const changed = await call("PATCH", "/api/v3/company", admin, { language: "sv", signingMethods: ["mitid.dk"], recycleBinDays: 60 });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ language: "sv", signingMethods: ["mitid.dk"], recycleBinDays: 60 });
    const bad = await call<{ errors: { path: string }[] }>("PATCH", "/api/v3/company", admin, { signingMethods: ["carrier-pigeon"], recycleBinDays: -1 });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e) => e.path).sort()).toEqual(["recycleBinDays", "signingMethods[0]"]);

    const requested = await call("POST", "/api/v3/company/channels/eboks/request", admin);
    expect(requested.status).toBe(202);
    expect(requested.json).toMatchObject({ channels: { email: true, eboks: "requested" } });

    const granted = await cli(["customers", "eboks", "grant", "--customer", String(acme.customerId)]);
    expect(granted).toMatchObject({ code: 0 });
    expect(JSON.parse(granted.stdout)).toEqual({ customerId: acme.customerId, eboks: "granted" });
    expect((await call("GET", "/api/v3/company", admin)).json).toMatchObject({ channels: { eboks: "granted" } });
    expect((await cli(["customers", "eboks", "revoke", "--customer", String(acme.customerId)])).code).toBe(0);
    expect((await call("GET", "/api/v3/company", admin)).json).toMatchObject({ channels: { eboks: "none" } });
  }, 240_000);

  it("the CLI creates the first administrator with ESIGN_ADMIN_PASSWORD, or prints a one-time password", async () => {
    const fresh = await newCustomer({ name: `Fresh ${tag}` });
    const given = await cli(["users", "create-admin", "--customer", String(fresh.customerId), "--email", email("first"), "--name", "First Admin"], {
      ESIGN_ADMIN_PASSWORD: "a long enough admin password",
    });
    expect(given.code).toBe(0);
    expect(JSON.parse(given.stdout)).toEqual({ customerId: fresh.customerId, userId: expect.any(Number), email: email("first"), created: true });
    expect((await signIn(email("first"), "a long enough admin password")).body.user).toMatchObject({ role: "admin", customerId: fresh.customerId });

    const printed = await cli(["users", "create-admin", "--customer", String(fresh.customerId), "--email", email("second"), "--name", "Second Admin"]);
    const out = JSON.parse(printed.stdout) as { password: string };
    expect(out.password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await signIn(email("second"), out.password);
  }, 240_000);
});

describe("the SDK with a session (what the web application uses)", () => {
  it("signs in, reads and changes with the cookie and CSRF token, shares a folder, signs out", async () => {
    const web = new EsignClient({ baseUrl: gw.url, session: true });
    const session = await web.sessions.signIn(email("admin"), PASSWORD);
    expect(session.user).toMatchObject({ id: adminId, role: "admin" });
    expect((await web.company.get()).id).toBe(acme.customerId);
    const folder = await web.folders.create({ title: `From the SDK ${tag}` });
    expect(await web.folders.setShares(folder.id, [memberA])).toEqual([memberA]);
    expect(await web.folders.shares(folder.id)).toEqual([memberA]);
    expect((await web.users.list()).map((u) => u.id)).toContain(memberA);
    expect((await web.sessions.current()).user.id).toBe(adminId);
    await web.sessions.signOut();
    await expect(web.company.get()).rejects.toBeInstanceOf(EsignApiError);

    const member = new EsignClient({ baseUrl: gw.url, session: true });
    await member.sessions.signIn(email("member-a"), PASSWORD);
    await expect(member.company.update({ name: "nope" })).rejects.toMatchObject({ status: 403 });
    await expect(member.company.get()).rejects.toMatchObject({ status: 403 });
    expect(await member.company.profile()).toMatchObject({ id: acme.customerId });
  });
});
