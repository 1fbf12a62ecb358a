import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { hashPassword, type CustomerCredentials } from "@esign/accounts";
import { closeTestDb, newCustomer, testDb } from "../support/api";
import { rawRequest, startOidcTestProvider, TestBrowser, type OidcTestProvider, type RawAnswer } from "../support/oidc-test-provider";
import { SSO_CALLBACK_PATH as CALLBACK, startSsoGateways } from "../support/sso-gateways";
import type { System } from "../support/system";

/*
 * Single sign-on of the web application's users (issue 28 item 1) against a real OpenID provider
 * (oidc-provider, HTTPS with a test CA) and the gateway in production mode: start -> the provider's
 * login -> callback -> the same session cookie as the password sign-in, the user's role kept. And
 * every way it must refuse: an unknown or disabled email, email_verified false, a tampered state, a
 * callback without the starting browser's cookie, a replayed code. Without SSO settings: no button
 * (enabled false) and 404 on start and callback.
 */
let provider: OidcTestProvider;
let system: System;
let plain: System;
let ca: Buffer;
let acme: CustomerCredentials;
const tag = randomUUID().slice(0, 8);
const email = (who: string) => `${who}-${tag}@example.test`;

beforeAll(async () => {
  provider = await startOidcTestProvider();
  ca = readFileSync(provider.ca.caFile);
  ({ sso: system, plain } = await startSsoGateways(provider, "Acme Login"));
  acme = await newCustomer();
  const passwordHash = await hashPassword("correct horse battery staple");
  await testDb().user.createMany({
    data: [
      { customerId: acme.customerId, email: email("admin"), name: "Admin", isAdmin: true, passwordHash },
      { customerId: acme.customerId, email: email("member"), name: "Member", isAdmin: false, passwordHash },
      { customerId: acme.customerId, email: email("gone"), name: "Gone", isAdmin: false, passwordHash, disabledAt: new Date() },
    ],
  });
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await plain?.stop();
  await provider?.stop();
  await closeTestDb();
});

const json = (answer: RawAnswer) => JSON.parse(answer.body) as Record<string, unknown>;
const html = { accept: "text/html" };
const JSON_ACCEPT = { accept: "application/json" };

interface Login {
  browser: TestBrowser;
  callbackUrl: string;
  /** The gateway's SSO login cookie before the callback spends it (for the replay). */
  loginCookie: string;
}

/** The browser's way: start at the gateway, the provider's login page (an email, verified or not), back to the callback. */
async function login(address: string, emailVerified = true): Promise<Login> {
  const browser = new TestBrowser(ca);
  const start = await browser.request(`${system.gateway.url}/api/v3/session/sso/start`, { headers: html });
  expect(start.status).toBe(303);
  expect(start.location?.startsWith(`${provider.issuer}/auth?`)).toBe(true);
  const loginPage = await browser.follow(start.location!);
  expect(loginPage.url).toMatch(/\/interaction\/[A-Za-z0-9_-]+$/);
  const form = new URLSearchParams({ decision: "approve", email: address });
  if (emailVerified) form.set("emailVerified", "true");
  const decided = await browser.request(loginPage.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  const callback = `${system.gateway.url}${CALLBACK}`;
  const back = await browser.follow(decided.location!, (next) => next.startsWith(callback));
  expect(back.url.startsWith(`${callback}?`)).toBe(true);
  const loginCookie = browser.cookie(new URL(system.gateway.url).host, "esign_sso_login");
  expect(loginCookie).toBeTruthy();
  return { browser, callbackUrl: back.url, loginCookie: loginCookie! };
}

const gatewayHost = () => new URL(system.gateway.url).host;

describe("single sign-on of web-application users through a real OpenID provider", () => {
  it("offers the button's name, and signs a member in with a verified email (any case): the session cookie, the role kept", async () => {
    const offer = await rawRequest(`${system.gateway.url}/api/v3/session/sso`);
    expect(json(offer)).toEqual({ enabled: true, displayName: "Acme Login", startUrl: "/api/v3/session/sso/start" });

    const l = await login(email("member").toUpperCase());
    const done = await l.browser.request(l.callbackUrl, { headers: html });
    expect([done.status, done.location]).toEqual([303, `${system.gateway.url}/app/`]);
    expect(String(done.headers["set-cookie"])).toMatch(/esign_session=[A-Za-z0-9_-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    // Code flow with PKCE (S256), state and nonce, the configured scopes.
    const sent = (await provider.authorizationRequests()).at(-1)!;
    expect(sent).toMatchObject({ response_type: "code", code_challenge_method: "S256", scope: "openid email profile", client_id: provider.clientId });
    expect(sent.nonce).toBeTruthy();
    expect(sent.state).toBeTruthy();
    expect(sent.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const session = await l.browser.request(`${system.gateway.url}/api/v3/session`);
    expect(session.status).toBe(200);
    expect((json(session) as { user: Record<string, unknown> }).user).toMatchObject({ email: email("member"), role: "member", customerId: acme.customerId });
    // A member sees only themselves among the users, and may not change the company.
    const users = await l.browser.request(`${system.gateway.url}/api/v3/users`);
    expect((JSON.parse(users.body) as { email: string }[]).map((u) => u.email)).toEqual([email("member")]);
    const csrf = (json(session) as { csrfToken: string }).csrfToken;
    const invite = await l.browser.request(`${system.gateway.url}/api/v3/users/invitations`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": csrf },
      body: JSON.stringify({ email: email("new"), role: "member" }),
    });
    expect(invite.status).toBe(403);
  });

  it("signs an administrator in as an administrator (JSON clients get the session answer)", async () => {
    const l = await login(email("admin"));
    const done = await l.browser.request(l.callbackUrl, { headers: JSON_ACCEPT });
    expect(done.status).toBe(200);
    expect((json(done) as { user: Record<string, unknown> }).user).toMatchObject({ email: email("admin"), role: "admin" });
    const users = await l.browser.request(`${system.gateway.url}/api/v3/users`);
    expect((JSON.parse(users.body) as { email: string }[]).map((u) => u.email)).toEqual(
      expect.arrayContaining([email("admin"), email("member"), email("gone")]),
    );
  });

  it("never makes users: an unknown email and a disabled user are refused, no session; a browser lands on the sign-in page with the reason", async () => {
    const unknown = await login(email("stranger"));
    const refused = await unknown.browser.request(unknown.callbackUrl, { headers: JSON_ACCEPT });
    expect([refused.status, json(refused).error]).toEqual([403, "forbidden"]);
    expect(String(json(refused).message)).toContain("No enabled user");
    expect(unknown.browser.cookie(gatewayHost(), "esign_session")).toBeUndefined();
    expect(await testDb().user.count({ where: { email: { equals: email("stranger"), mode: "insensitive" } } })).toBe(0);

    const disabled = await login(email("gone"));
    const page = await disabled.browser.request(disabled.callbackUrl, { headers: html });
    expect([page.status, page.location]).toEqual([303, `${system.gateway.url}/app/?sso=unknown_user`]);
    expect(disabled.browser.cookie(gatewayHost(), "esign_session")).toBeUndefined();
  });

  it("refuses an email the provider does not vouch is verified", async () => {
    const l = await login(email("member"), false);
    const refused = await l.browser.request(l.callbackUrl, { headers: JSON_ACCEPT });
    expect([refused.status, json(refused).error]).toEqual([400, "login_failed"]);
    expect(String(json(refused).message)).toContain("email_verified");
    expect(l.browser.cookie(gatewayHost(), "esign_session")).toBeUndefined();
  });

  it("refuses a tampered state, and a callback in a browser without the login cookie", async () => {
    const l = await login(email("member"));
    const url = new URL(l.callbackUrl);
    const state = url.searchParams.get("state")!;
    const tampered = new URL(url);
    tampered.searchParams.set("state", `${state.slice(0, 5)}${state[5] === "A" ? "B" : "A"}${state.slice(6)}`);
    const bad = await l.browser.request(tampered.toString(), { headers: JSON_ACCEPT });
    expect([bad.status, json(bad).error]).toEqual([400, "invalid_login_state"]);

    const elsewhere = await rawRequest(l.callbackUrl, { headers: JSON_ACCEPT });
    expect([elsewhere.status, json(elsewhere).error]).toEqual([400, "login_session_missing"]);
    expect(elsewhere.headers["set-cookie"]).toBeUndefined();
  });

  it("refuses a replayed code, even with the login cookie put back", async () => {
    const l = await login(email("member"));
    expect((await l.browser.request(l.callbackUrl, { headers: JSON_ACCEPT })).status).toBe(200);
    const replayer = new TestBrowser(ca);
    replayer.setCookie(gatewayHost(), "esign_sso_login", l.loginCookie);
    const replay = await replayer.request(l.callbackUrl, { headers: JSON_ACCEPT });
    expect([replay.status, json(replay).error]).toEqual([400, "login_failed"]);
    expect(replayer.cookie(gatewayHost(), "esign_session")).toBeUndefined();
  });

  it("without SSO settings: no offer, and start and callback answer 404", async () => {
    expect(json(await rawRequest(`${plain.gateway.url}/api/v3/session/sso`))).toEqual({ enabled: false, displayName: null, startUrl: null });
    expect((await rawRequest(`${plain.gateway.url}/api/v3/session/sso/start`, { headers: html })).status).toBe(404);
    expect((await rawRequest(`${plain.gateway.url}${CALLBACK}?state=x&code=y`, { headers: JSON_ACCEPT })).status).toBe(404);
  });
});
