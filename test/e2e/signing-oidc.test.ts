import { readFileSync } from "node:fs";
import { decryptSecret } from "@esign/db";
import { TEST_ENCRYPTION_KEY, closeTestDb, getToken, newCustomer, testDb } from "../support/api";
import { startOidcTestProvider, TestBrowser, type OidcTestProvider, type RawAnswer } from "../support/oidc-test-provider";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import { createCase, getAs, signerEvents, type SignPage } from "../support/signing-api";
import { startSystem, type System } from "../support/system";

/*
 * The OpenID Connect adapter against a real OpenID provider (oidc-provider, HTTPS with a test CA) and
 * the gateway in production mode: authorization code with PKCE, state and nonce, per-method
 * acr_values / scopes / login_hint, the national id claim for accessControl, and every way a login
 * must fail: cancelled, wrong nonce, wrong issuer, wrong acr, expired or replayed code, another person.
 */
let provider: OidcTestProvider;
let system: System;
let token: string;
let ca: Buffer;
let contract: Buffer;

const METHODS = {
  "mitid.dk": { acrValues: "urn:test:mitid:substantial", scope: "openid ssn", nationalIdClaim: "national_id" },
  bankid_se: { acrValues: "urn:test:bankid-se", loginHint: "appswitch:ios" },
};

beforeAll(async () => {
  provider = await startOidcTestProvider();
  ca = readFileSync(provider.ca.caFile);
  system = await startSystem(
    ["casefile-worker"],
    {},
    {
      NODE_ENV: "production",
      JWT_SECRET: "oidc-test-jwt-secret-of-at-least-32-characters",
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      METRICS_TOKEN: "oidc-test-metrics-token",
      IDENTITY_PROVIDER: "oidc",
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_METHODS: JSON.stringify(METHODS),
      OIDC_SCOPES: "openid",
      OIDC_NATIONAL_ID_CLAIM: "national_id",
      OIDC_DISPLAY_NAME: "E-Sign test broker",
      // The gateway trusts the test CA the way a production machine trusts the public ones.
      NODE_EXTRA_CA_CERTS: provider.ca.caFile,
      JOB_POLL_LIMIT_PER_MINUTE: "0",
    },
  );
  await provider.setRedirectUri(`${system.gateway.url}/sign/secure/callback`);
  token = await getToken(system.gateway.url, await newCustomer({ secureSigningMethods: ["mitid.dk", "bankid_se", "itsme.be"] }));
  contract = await makePdf("Contract");
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await provider?.stop();
  await closeTestDb();
});

const signer = (over: Record<string, unknown> = {}) => ({ name: "Mads Madsen", email: "mads@example.com", role: "Buyer", language: "da", ...over });
async function createSigner(over: Record<string, unknown> = {}, caseFile: Record<string, unknown> = {}) {
  const cf = await createCase(
    system.gateway.url,
    token,
    validCaseFile({ signers: [signer(over)], documents: [{ title: "Contract", name: "contract.pdf" }], ...caseFile }),
    [{ name: "contract.pdf", content: contract }],
  );
  return Object.values(cf.links)[0]!;
}
const signerRow = (id: number) => testDb().signer.findUniqueOrThrow({ where: { id } });
const json = (answer: RawAnswer) => JSON.parse(answer.body) as Record<string, unknown>;

interface Login {
  browser: TestBrowser;
  callbackUrl: string;
  /** The gateway's login cookie as it was before the callback spent it (for the replay). */
  loginCookie: string;
}

/** The browser's way: start at the gateway, the provider's login page, approve or cancel, back to the callback. */
async function login(
  linkUrl: string,
  method: string,
  purpose: "sign" | "identify",
  opts: { decision?: "approve" | "cancel"; nationalId?: string } = {},
): Promise<Login> {
  const browser = new TestBrowser(ca);
  const start = await browser.request(`${linkUrl}/secure/${method}/start`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ purpose }),
  });
  expect([start.status, start.body]).toEqual([200, expect.any(String)]);
  const { redirectUrl } = json(start) as { redirectUrl: string };
  expect(redirectUrl.startsWith(`${provider.issuer}/auth?`)).toBe(true);
  const loginPage = await browser.follow(redirectUrl);
  expect(loginPage.answer.status).toBe(200);
  expect(loginPage.url).toMatch(/\/interaction\/[A-Za-z0-9_-]+$/);
  const decided = await browser.request(loginPage.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ decision: opts.decision ?? "approve", nationalId: opts.nationalId ?? "" }).toString(),
  });
  expect(decided.location).toBeDefined();
  const callback = `${system.gateway.url}/sign/secure/callback`;
  const back = await browser.follow(decided.location!, (next) => next.startsWith(callback));
  expect(back.url.startsWith(`${callback}?`)).toBe(true);
  const loginCookie = browser.cookie(new URL(system.gateway.url).host, "esign_login");
  expect(loginCookie).toBeTruthy();
  return { browser, callbackUrl: back.url, loginCookie: loginCookie! };
}

const finish = (l: Login, accept = "application/json") => l.browser.request(l.callbackUrl, { headers: { accept } });

describe("secure signing through a real OpenID provider (production mode)", () => {
  it("signs with MitID: code flow with PKCE (S256), state and nonce, the method's acr_values and scope, the signer's language; the identity is kept", async () => {
    const link = await createSigner({ successUrl: "https://example.com/done" });
    const page = await getAs<SignPage>(link.url);
    // itsme.be is enabled for the account but the broker is not set up for it: not offered.
    expect(page.body.methods).toEqual({ insecure: [], secure: ["mitid.dk", "bankid_se"] });

    const l = await login(link.url, "mitid.dk", "sign");
    const sent = (await provider.authorizationRequests()).at(-1)!;
    expect(sent).toMatchObject({
      response_type: "code",
      client_id: provider.clientId,
      redirect_uri: `${system.gateway.url}/sign/secure/callback`,
      scope: "openid ssn",
      acr_values: "urn:test:mitid:substantial",
      code_challenge_method: "S256",
      ui_locales: "da",
    });
    expect(sent.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sent.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sent.state!.length).toBeGreaterThan(40);
    // The PKCE verifier never leaves the gateway: it is not in any URL the browser saw.
    expect(JSON.stringify(sent)).not.toContain("code_verifier");

    const done = await finish(l);
    expect(done.status).toBe(200);
    expect(json(done)).toEqual({ status: "signed", signerId: link.signerId, redirectUrl: "https://example.com/done" });
    const row = await signerRow(link.signerId);
    expect(row).toMatchObject({
      status: 4,
      signatureMethod: "mitid.dk",
      identityProvider: "E-Sign test broker",
      identityMethod: "mitid.dk",
      identityNationalIdEnc: null,
    });
    expect(row.identitySubject).toMatch(/^person-[0-9a-f-]{36}$/);
    expect(row.signatureValue).toBe(row.identitySubject);
    expect(row.identityVerifiedAt).toBeInstanceOf(Date);
    expect(await signerEvents(link.signerId, "sign.signer.signed")).toHaveLength(1);
  });

  it("sends BankID's login_hint and acr_values; a browser gets the 303s and the page in its own language", async () => {
    const link = await createSigner({ language: "sv" });
    const l = await login(link.url, "bankid_se", "sign");
    expect((await provider.authorizationRequests()).at(-1)).toMatchObject({
      acr_values: "urn:test:bankid-se",
      login_hint: "appswitch:ios",
      scope: "openid",
      ui_locales: "sv",
    });
    const done = await finish(l, "text/html");
    expect(done.status).toBe(200);
    expect(done.body).toContain('<html lang="sv">');
    expect(done.body).toContain("Tack! Din signatur är registrerad.");
    expect(await signerRow(link.signerId)).toMatchObject({ status: 4, signatureMethod: "bankid_se" });
  });

  it("a login cancelled at the provider signs nothing: 400 login_cancelled, a Danish page that leads back, and the signer can start again", async () => {
    const link = await createSigner();
    const cancelled = await login(link.url, "mitid.dk", "sign", { decision: "cancel" });
    expect(cancelled.callbackUrl).toContain("error=access_denied");
    const answer = await finish(cancelled);
    expect(answer.status).toBe(400);
    expect(json(answer).error).toBe("login_cancelled");

    const again = await login(link.url, "mitid.dk", "sign", { decision: "cancel" });
    const page = await finish(again, "text/html");
    expect(page.status).toBe(400);
    expect(page.body).toContain("Login med dit elektroniske ID blev afbrudt.");
    expect(page.body).toContain(`<a href="${link.url}">Tilbage til underskriftssiden</a>`);
    expect((await signerRow(link.signerId)).status).toBe(1);

    expect((await finish(await login(link.url, "mitid.dk", "sign"))).status).toBe(200);
  });

  it("refuses an ID token with another nonce, another issuer or another acr, each signed by the provider's own key", async () => {
    const link = await createSigner();
    for (const [claim, value, reason] of [
      ["nonce", "a-nonce-from-another-login", /unexpected ID Token "nonce" claim value/],
      ["iss", "https://evil.example", /unexpected JWT "iss" \(issuer\) claim value/],
      ["acr", "urn:test:weak", /acr "urn:test:weak"/],
    ] as const) {
      const l = await login(link.url, "mitid.dk", "sign");
      await provider.tamperNextIdToken(claim, value);
      const answer = await finish(l);
      expect([claim, answer.status, json(answer).error]).toEqual([claim, 400, "login_failed"]);
      expect(String(json(answer).message)).toMatch(reason);
      expect((await signerRow(link.signerId)).status).toBe(1);
    }
    expect(await signerEvents(link.signerId, "sign.signer.signed")).toHaveLength(0);
  });

  it("refuses an expired code and a replayed one (even with the login cookie kept from before)", async () => {
    const expired = await createSigner();
    const late = await login(expired.url, "mitid.dk", "sign");
    await provider.expireCodes();
    const answer = await finish(late);
    expect([answer.status, json(answer).error]).toEqual([400, "login_failed"]);
    expect(String(json(answer).message)).toContain("invalid_grant");
    expect((await signerRow(expired.signerId)).status).toBe(1);

    const replayed = await createSigner({}, { sensitiveData: true });
    const first = await login(replayed.url, "mitid.dk", "identify");
    expect(json(await finish(first))).toMatchObject({ status: "identified" });
    // The same callback again, with the cookie the first answer spent put back: the code is used up.
    first.browser.setCookie(new URL(system.gateway.url).host, "esign_login", first.loginCookie);
    const again = await finish(first);
    expect([again.status, json(again).error]).toEqual([400, "login_failed"]);
    expect(String(json(again).message)).toContain("invalid_grant");
  });

  it("accessControl: the national id claim must match the one on file; the matching one is kept encrypted with the signature", async () => {
    const link = await createSigner({ accessControl: true, socialSecurityNumberPlain: "0101901234", ssnType: "dk:cpr" });
    const wrong = await finish(await login(link.url, "mitid.dk", "identify", { nationalId: "0202905678" }));
    expect([wrong.status, json(wrong).error]).toEqual([403, "identity_mismatch"]);
    const none = await finish(await login(link.url, "mitid.dk", "identify"));
    expect([none.status, json(none).error]).toEqual([403, "identity_mismatch"]);

    const right = await finish(await login(link.url, "mitid.dk", "sign", { nationalId: "010190-1234" }));
    expect(right.status).toBe(200);
    const row = await signerRow(link.signerId);
    expect(row).toMatchObject({ status: 4, identityMethod: "mitid.dk", identityProvider: "E-Sign test broker" });
    expect(row.identityNationalIdEnc).not.toContain("0101901234");
    expect(decryptSecret(row.identityNationalIdEnc!, TEST_ENCRYPTION_KEY)).toBe("010190-1234");
  });

  it("a method the broker is not set up for answers 503; a provider that cannot be reached answers 503, and nothing is signed", async () => {
    const link = await createSigner();
    const browser = new TestBrowser(ca);
    const itsme = await browser.request(`${link.url}/secure/itsme.be/start`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: "{}",
    });
    expect([itsme.status, json(itsme).error]).toEqual([503, "identity_provider_unavailable"]);

    const l = await login(link.url, "mitid.dk", "sign");
    await provider.stop();
    const answer = await finish(l);
    expect([answer.status, json(answer).error]).toEqual([503, "identity_provider_unavailable"]);
    expect((await signerRow(link.signerId)).status).toBe(1);
  });
});
