import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createAdminUser, hashPassword } from "@esign/accounts";
import { closeTestDb, newCustomer, testDb } from "../support/api";
import { describeInBrowser, launchChromium, runAxe, seriousViolations, watchProblems } from "../support/browser";
import { startOidcTestProvider, type OidcTestProvider } from "../support/oidc-test-provider";
import { startSsoGateways } from "../support/sso-gateways";
import type { System } from "../support/system";

/*
 * Single sign-on in the web application (issue 28 item 1), in real Chromium against the real test
 * OpenID provider: the sign-in page offers "Sign in with <SSO_DISPLAY_NAME>" (axe clean, in two
 * languages), the button leads through the provider's login back into the archive as that user, an
 * unknown email comes back to the sign-in page with the reason, and a gateway without SSO settings
 * shows no button.
 */
let provider: OidcTestProvider;
let system: System;
let plain: System;
let browser: Browser;
const tag = randomUUID().slice(0, 8);
const ADMIN = { email: `anne-${tag}@nordlys.example`, name: "Anne Admin", password: "korrekt-hest-batteri-1" };
const MEMBER = `mads-${tag}@nordlys.example`;

describeInBrowser("single sign-on in the web application (Chromium)", () => {
  beforeAll(async () => {
    provider = await startOidcTestProvider();
    ({ sso: system, plain } = await startSsoGateways(provider, "Nordlys ID"));
    const customer = await newCustomer();
    await createAdminUser(testDb(), { customerId: customer.customerId, ...ADMIN });
    await testDb().user.create({
      data: { customerId: customer.customerId, email: MEMBER, name: "Mads Member", passwordHash: await hashPassword(ADMIN.password) },
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await plain?.stop();
    await provider?.stop();
    await closeTestDb();
  });

  /** A fresh browser; the provider's certificate is of the tests' own CA, which this Chromium does not know. */
  async function open(baseUrl: string, lang = "en"): Promise<{ context: BrowserContext; page: Page; problems: () => string[]; offer: Promise<unknown> }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: lang, ignoreHTTPSErrors: true });
    await context.addInitScript(`localStorage.setItem("esign.language", ${JSON.stringify(lang)})`);
    const page = await context.newPage();
    const seen = watchProblems(page);
    // The page's question to the gateway whether single sign-on is offered.
    const offer = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v3/session/sso").then((r) => r.json());
    await page.goto(`${baseUrl}/app/`, { waitUntil: "load" });
    // The signed-out page asks for the session and is told 401: not a problem of the page.
    return { context, page, offer, problems: () => seen.filter((p) => !p.startsWith("error: Failed to load resource")) };
  }

  /** On the provider's login page: the email it vouches for (verified), approve. */
  async function providerLogin(page: Page, email: string) {
    await page.getByRole("heading", { name: "Test eID broker" }).waitFor();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Approve" }).click();
  }

  it("clicks 'Sign in with Nordlys ID' through the provider into the archive, as that user with that role", async () => {
    const { context, page, problems } = await open(system.gateway.url);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByRole("link", { name: "Sign in with Nordlys ID" }).click();
    await providerLogin(page, MEMBER);
    await page.getByRole("navigation").waitFor();
    await page.getByRole("heading", { level: 1, name: "Archive" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/");
    // The session is the member's, the role kept.
    const session = await page.evaluate(async () => (await fetch("/api/v3/session")).json());
    expect(session).toMatchObject({ user: { email: MEMBER, role: "member" } });
    expect(problems()).toEqual([]);
    await context.close();
  });

  it("brings an unknown email back to the sign-in page with the reason, signed out", async () => {
    const { context, page } = await open(system.gateway.url);
    await page.getByRole("link", { name: "Sign in with Nordlys ID" }).click();
    await providerLogin(page, `stranger-${tag}@nordlys.example`);
    await page.getByRole("alert").filter({ hasText: "no user here has that email" }).waitFor();
    expect(new URL(page.url()).search).toBe("?sso=unknown_user");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await context.close();
  });

  it.each([
    { lang: "en", heading: "Sign in", button: "Sign in with Nordlys ID" },
    { lang: "da", heading: "Log ind", button: "Log ind med Nordlys ID" },
  ])("the sign-in page with the button has no serious or critical axe violation ($lang)", async ({ lang, heading, button }) => {
    const { context, page, problems } = await open(system.gateway.url, lang);
    await page.getByRole("heading", { name: heading }).waitFor();
    await page.getByRole("link", { name: button }).waitFor();
    expect(seriousViolations(await runAxe(page))).toEqual([]);
    expect(problems()).toEqual([]);
    await context.close();
  });

  it("shows no button where single sign-on is not configured", async () => {
    const { context, page, offer } = await open(plain.gateway.url);
    expect(await offer).toEqual({ enabled: false, displayName: null, startUrl: null });
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("link", { name: /Sign in with/ }).count()).toBe(0);
    await context.close();
  });
});
