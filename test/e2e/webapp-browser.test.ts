import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createAdminUser, createCustomer } from "@esign/accounts";
import { verifyWebhook } from "@esign/sdk";
import { TEST_ENCRYPTION_KEY } from "../support/api";
import { describeInBrowser, keepScreenshot, launchChromium, runAxe, seriousViolations, watchProblems } from "../support/browser";
import { makeLetterPdf } from "../support/pdf";
import { startReceiver, type Receiver } from "../support/receiver";
import { startSmtpSink, type SinkMessage, type SmtpSink } from "../support/smtp-sink";
import { startSystem, type System } from "../support/system";
import { createWorld, type World } from "../support/webhook-world";

/*
 * The customer's web application (/app/) in a real browser (Debian's Chromium), against the real
 * services: a whole working day of an administrator (sign in, a webhook subscription, a case file with
 * two signers created in the browser, followed to completed through the signer pages, the sealed PDF
 * downloaded and its seal checked, a failing webhook endpoint fixed and its delivery redelivered),
 * members who see only their own case files and cannot configure the company, typed input that
 * survives a reload, and axe-core over every page in two languages, on a desktop and a 390 px phone.
 * One service stack and one browser for the file.
 */

let system: System;
let world: World;
let smtp: SmtpSink;
let receiver: Receiver;
let browser: Browser;
let shots: string;
let customerId: number;

const ADMIN = { email: "anne.admin@nordlys.example", name: "Anne Admin", password: "korrekt-hest-batteri-1" };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describeInBrowser("the web application in Chromium", () => {
  beforeAll(async () => {
    [smtp, world, receiver] = await Promise.all([startSmtpSink(), createWorld("webapp"), startReceiver()]);
    system = await startSystem(["casefile-worker", "notifier", "webhook-dispatcher"], world.env({ SMTP_URL: smtp.url, WEBHOOK_LADDER_SCALE: "0.001" }), {
      JOB_POLL_LIMIT_PER_MINUTE: "0",
    });
    const customer = await createCustomer(world.db, { name: "Nordlys Ejendomme" }, TEST_ENCRYPTION_KEY);
    customerId = customer.customerId;
    await createAdminUser(world.db, { customerId, ...ADMIN });
    browser = await launchChromium();
    shots = await mkdtemp(path.join(process.env.ESIGN_TEST_DIR ?? os.tmpdir(), "webapp-"));
  }, 120_000);

  afterAll(async () => {
    await signedIn?.context.close();
    await browser?.close();
    await system?.stop();
    await Promise.all([smtp?.stop(), receiver?.close()]);
    await world?.close();
  });

  const appUrl = (hash = "") => `${system.gateway.url}/app/${hash}`;

  /**
   * Script errors, CSP refusals and console warnings of a page. A refused request is not one: the
   * application asks for the session and is told 401 when signed out, and shows every failed call itself.
   */
  async function open(context: BrowserContext, url: string): Promise<{ page: Page; problems: () => string[]; requests: string[] }> {
    const page = await context.newPage();
    const seen = watchProblems(page);
    const problems = () => seen.filter((p) => !p.startsWith("error: Failed to load resource"));
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(url, { waitUntil: "load" });
    return { page, problems, requests };
  }

  async function signIn(page: Page, who: { email: string; password: string }) {
    await page.getByLabel("Email").fill(who.email);
    await page.getByLabel("Password").fill(who.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("navigation").waitFor();
  }

  /** Goes to a screen of the application and waits until it has drawn its heading. */
  async function go(page: Page, hash: string, heading: string | RegExp) {
    await page.goto(appUrl(hash));
    await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  }

  async function shoot(page: Page, name: string, fullPage = true) {
    const file = path.join(shots, name);
    await page.screenshot({ path: file, fullPage });
    await keepScreenshot(file, name);
  }

  /**
   * One administrator's page, signed in once and shared by the tests below that need nothing else
   * (a sign-in and a fresh context per test would cost the slow suite more time).
   */
  let signedIn: { context: BrowserContext; page: Page; problems: () => string[] } | undefined;
  async function adminPage(): Promise<Page> {
    if (!signedIn) {
      const context = await browser.newContext(DESKTOP);
      const { page, problems } = await open(context, appUrl());
      await signIn(page, ADMIN);
      signedIn = { context, page, problems };
    }
    return signedIn.page;
  }

  const signingLink = (m: SinkMessage) => /http:\/\/127\.0\.0\.1:\d+\/sign\/[A-Za-z0-9_-]{43}/.exec(`${m.text}\n${m.html ?? ""}`)?.[0];
  const inviteLink = (m: SinkMessage) => /http:\/\/127\.0\.0\.1:\d+\/app\/invite\/[A-Za-z0-9_-]+/.exec(`${m.text}\n${m.html ?? ""}`)?.[0];

  /** A signer's visit through the signer pages: the link from the mail, the typed name, Sign. */
  async function signAs(name: string, email: string) {
    const mail = await smtp.waitFor((m) => m.to.includes(email) && signingLink(m) !== undefined, 30_000);
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const link = signingLink(mail)!;
    await page.goto(link);
    await page.getByLabel("Your full name").fill(name);
    await Promise.all([page.waitForURL(`${link}/sign`), page.getByRole("button", { name: "Sign", exact: true }).click()]);
    await page.getByText("your signature is recorded").waitFor();
    await context.close();
  }

  let caseFileId = 0;
  let subscriptionId = "";

  it("a whole run: sign in, a case file with two signers created in the browser, followed to completed, the sealed PDF, a failing webhook fixed and redelivered", async () => {
    const [contract, appendix] = await Promise.all([
      makeLetterPdf("Lejekontrakt", ["Mellem udlejer Nordlys Ejendomme ApS og lejer indgås aftale om leje af Havnegade 4, 1. tv."], 2),
      makeLetterPdf("Husorden", ["Der skal være ro i ejendommen mellem kl. 22 og 7."]),
    ]);
    receiver.on("/wrong", () => ({ status: 404 }));
    const context = await browser.newContext({ ...DESKTOP, acceptDownloads: true });
    const { page, problems, requests } = await open(context, appUrl());
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await signIn(page, ADMIN);
    expect(await page.locator(".who").innerText()).toContain("Nordlys Ejendomme");

    // A subscription whose endpoint is wrong: its deliveries fail (404).
    await go(page, "#/webhooks", "Webhooks");
    await page.getByLabel("Endpoint URL").fill(receiver.url("/wrong"));
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByRole("button", { name: "Send the test event" }).waitFor();
    subscriptionId = /#\/webhooks\/([\w-]+)/.exec(page.url())![1]!;

    // The case file, in the browser: two PDFs, two signers in order, a copy recipient, a reference.
    await go(page, "#/new", "New case file");
    await page.getByLabel("Title", { exact: true }).fill("Lejekontrakt, Havnegade 4");
    await page.getByLabel("Reference", { exact: true }).fill("NORD-2026-0042");
    await page.locator('input[type="file"]').setInputFiles([
      { name: "lejekontrakt.pdf", mimeType: "application/pdf", buffer: contract },
      { name: "husorden.pdf", mimeType: "application/pdf", buffer: appendix },
    ]);
    await page.locator('input[name="signer-0-name"]').fill("Lars Lejer");
    await page.locator('input[name="signer-0-email"]').fill("lars@example.com");
    await page.locator('input[name="signer-0-role"]').fill("Lejer");
    await page.getByRole("button", { name: "Add a signer" }).click();
    await page.locator('input[name="signer-1-name"]').fill("Ulla Udlejer");
    await page.locator('input[name="signer-1-email"]').fill("ulla@example.com");
    await page.locator('input[name="signer-1-order"]').fill("2");
    await page.getByRole("button", { name: "Add a copy recipient" }).click();
    await page.locator('input[name="cc-0-name"]').fill("Bogholderiet");
    await page.locator('input[name="cc-0-email"]').fill("bogholderi@example.com");
    // What was typed survives a reload (sessionStorage); the files are chosen again.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "New case file" }).waitFor();
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe("Lejekontrakt, Havnegade 4");
    expect(await page.locator('input[name="signer-1-email"]').inputValue()).toBe("ulla@example.com");
    expect(await page.locator('input[name="cc-0-email"]').inputValue()).toBe("bogholderi@example.com");
    await page.locator('input[type="file"]').setInputFiles([
      { name: "lejekontrakt.pdf", mimeType: "application/pdf", buffer: contract },
      { name: "husorden.pdf", mimeType: "application/pdf", buffer: appendix },
    ]);
    await page.getByRole("button", { name: "Create the case file" }).click();
    // Long work shows progress: the upload, then the preparation of the signing requests.
    await page.locator("progress").first().waitFor();
    await page.waitForURL(/#\/casefiles\/\d+$/, { timeout: 60_000 });
    caseFileId = Number(/casefiles\/(\d+)/.exec(page.url())![1]);
    await page.getByRole("heading", { level: 1, name: /Lejekontrakt, Havnegade 4/ }).waitFor();
    expect(await page.locator("h1 .badge").innerText()).toBe("Pending");

    // The signer pages, in order: Lars first, then Ulla (her request goes out when Lars has signed).
    await signAs("Lars Lejer", "lars@example.com");
    await signAs("Ulla Udlejer", "ulla@example.com");

    // Followed to completed: reload until the case file is sealed (the worker finalizes it).
    for (let i = 0; i < 60; i++) {
      await page.reload();
      await page.locator("h1 .badge").waitFor();
      if ((await page.locator("h1 .badge").innerText()) === "Completed") break;
      await page.waitForTimeout(500);
    }
    expect(await page.locator("h1 .badge").innerText()).toBe("Completed");
    expect(await page.locator("li.row .badge").allInnerTexts()).toEqual(["Signed", "Signed"]);
    const log = await page.locator("table").innerText();
    expect(log).toContain("signed");

    // The sealed PDF: downloaded through the browser, a PDF with a signature; its seal checks out.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download sealed PDF: lejekontrakt" }).click()]);
    const file = await download.path();
    const { readFile } = await import("node:fs/promises");
    const pdf = await readFile(file);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.toString("latin1")).toContain("/ByteRange");
    expect(pdf.length).toBeGreaterThan(contract.length);
    await page.getByRole("button", { name: "Verify seal" }).first().click();
    await page.getByText("The seal is valid and the document is unchanged.").waitFor();
    await shoot(page, "webapp-case-file-completed.png");

    // The archive: the case file under Completed, found by its reference.
    await go(page, "#/", "Archive");
    await page.getByRole("button", { name: "Completed" }).click();
    await page.getByLabel("Search title, reference or metadata").fill("NORD-2026-0042");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByRole("link", { name: "Lejekontrakt, Havnegade 4" }).waitFor();
    expect(await page.locator("li.row .badge").allInnerTexts()).toEqual(["Completed"]);

    // The webhook: its deliveries failed against the wrong endpoint; fix the endpoint, redeliver.
    await go(page, `#/webhooks/${subscriptionId}`, receiver.url("/wrong"));
    const failed = page.locator('tr[data-outcome]:not([data-outcome="success"])').first();
    for (let i = 0; i < 40 && (await failed.count()) === 0; i++) {
      await page.waitForTimeout(500);
      await page.getByRole("button", { name: "Refresh" }).click();
    }
    expect(await failed.locator("td").nth(4).innerText()).toBe("404");
    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Endpoint URL").fill(receiver.url("/hook"));
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: receiver.url("/hook") }).waitFor();
    await page.locator('tr[data-outcome]:not([data-outcome="success"])').first().getByRole("button", { name: "Redeliver" }).click();
    await page.getByText("Redelivery queued.").waitFor();
    const [delivered] = await receiver.waitFor("/hook", 1, 30_000);
    expect(delivered!.headers["x-event-signature"]).toBeDefined();
    await shoot(page, "webapp-webhook.png", false);

    // Nothing from another origin, nothing refused by the CSP, no script error.
    const origin = new URL(system.gateway.url).origin;
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith("data:") && !u.startsWith("blob:"))).toEqual([]);
    expect(problems()).toEqual([]);
    await context.close();
  }, 240_000);

  it("a subscription's issue-29 controls: the secret rotated with an overlap (shown once) and the overlap ended, a throttle and ordered delivery set and cleared, a time window recovered with its progress shown until done", async () => {
    const page = await adminPage();
    const hook = "/controls";
    await go(page, "#/webhooks", "Webhooks");
    await page.getByLabel("Endpoint URL").fill(receiver.url(hook));
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByRole("button", { name: "Send the test event" }).waitFor();
    const id = /#\/webhooks\/([\w-]+)/.exec(page.url())![1]!;
    // What the API says, read with the page's own session cookie.
    const read = async () =>
      (await (await page.request.get(`${system.gateway.url}/webhook/api/v1/subscriptions/${id}`)).json()) as {
        secret: string;
        maxPerSecond: number | null;
        ordered: boolean;
        previousSecretExpiresAt: string | null;
      };
    const oldSecret = (await read()).secret;
    await page.getByText("Deliveries are signed with the current secret only.").waitFor();

    // Rotation with a one-hour overlap: the new secret is shown, and deliveries verify with either secret.
    await page.getByLabel("Overlap in hours").fill("1");
    await page.getByRole("button", { name: "Rotate the secret" }).click();
    await page.getByText("Copy the new secret now: it is shown only this once.").waitFor();
    const newSecret = await page.locator('[data-secret="rotated"]').innerText();
    expect(newSecret).not.toBe(oldSecret);
    const during = await read();
    expect(during.secret).toBe(newSecret);
    expect(during.previousSecretExpiresAt).not.toBeNull();
    await page.getByText(/deliveries are also signed with the previous secret/).waitFor();
    await page.getByRole("button", { name: "Send the test event" }).click();
    const [first] = await receiver.waitFor(hook, 1, 30_000);
    for (const secret of [oldSecret, newSecret]) {
      expect(await verifyWebhook({ secret, rawBody: first!.rawBody, headers: first!.headers })).toMatchObject({ ok: true });
    }

    // The overlap ended at once: only the new secret signs.
    await page.getByRole("button", { name: "End the overlap now" }).click();
    await page.getByText("Deliveries are signed with the current secret only.").waitFor();
    expect((await read()).previousSecretExpiresAt).toBeNull();
    // Shown once: after a reload the new secret is no longer on the page (only behind "Show the secret").
    await page.reload();
    await page.getByRole("button", { name: "Rotate the secret" }).waitFor();
    expect(await page.locator('[data-secret="rotated"]').count()).toBe(0);
    await page.getByRole("button", { name: "Send the test event" }).click();
    const second = (await receiver.waitFor(hook, 2, 30_000))[1]!;
    expect(await verifyWebhook({ secret: newSecret, rawBody: second.rawBody, headers: second.headers })).toMatchObject({ ok: true });
    expect(await verifyWebhook({ secret: oldSecret, rawBody: second.rawBody, headers: second.headers })).toMatchObject({
      ok: false,
      reason: "signature_mismatch",
    });

    // A throttle of 5 per second and ordered delivery, then both cleared.
    await page.getByLabel("Limit the delivery rate").check();
    await page.getByLabel("Deliveries per second at most").fill("5");
    await page.getByLabel("Deliver each case file's events in order").check();
    await page.getByRole("button", { name: "Save the delivery settings" }).click();
    await page.getByText("At most 5 per second · In order per case file").waitFor();
    await page.getByText("The delivery settings are saved.").waitFor();
    expect(await read()).toMatchObject({ maxPerSecond: 5, ordered: true });
    // The form shows what the server holds, after the save and after a reload.
    for (const round of ["saved", "reloaded"]) {
      if (round === "reloaded") await page.reload();
      expect(await page.getByLabel("Deliveries per second at most").inputValue()).toBe("5");
      expect(await page.getByLabel("Deliver each case file's events in order").isChecked()).toBe(true);
    }
    await page.getByLabel("Limit the delivery rate").uncheck();
    await page.getByLabel("Deliver each case file's events in order").uncheck();
    await page.getByRole("button", { name: "Save the delivery settings" }).click();
    await page.getByText("No rate limit · Not ordered").waitFor();
    expect(await read()).toMatchObject({ maxPerSecond: null, ordered: false });
    for (const round of ["saved", "reloaded"]) {
      if (round === "reloaded") await page.reload();
      expect(await page.getByLabel("Limit the delivery rate").isChecked()).toBe(false);
      expect(await page.getByLabel("Deliver each case file's events in order").isChecked()).toBe(false);
    }

    // Recover every delivery of the last day: the two test events again, each once, with their X-Event-Id.
    await page.getByLabel("Every delivery, not only the failed ones").check();
    await page.getByRole("button", { name: "Recover", exact: true }).click();
    await page.locator("[data-recover-state] progress").waitFor();
    await page.getByText("Recovery done: 2 of 2 delivered.").waitFor({ timeout: 60_000 });
    const all = await receiver.waitFor(hook, 4, 30_000);
    const ids = all.map((r) => String(r.headers["x-event-id"]));
    expect(ids.slice(2).sort()).toEqual(ids.slice(0, 2).sort());
    expect(new Set(ids).size).toBe(2);
    await shoot(page, "webapp-webhook-controls.png");
    expect(signedIn!.problems()).toEqual([]);
  }, 180_000);

  it("API credentials on the Company page: an OAuth client with its API key made twice, the secrets shown once, one revoked", async () => {
    const page = await adminPage();
    await go(page, "#/company", /Company/);
    const credentials = page.locator('section[aria-labelledby="credentials"]');
    await credentials.getByText("Something went wrong").waitFor({ state: "detached" });
    const made: { clientId: string; clientSecret: string; apiKey: string; apiSecret: string }[] = [];
    for (let i = 0; i < 2; i++) {
      await page.getByRole("button", { name: "Create API credentials" }).click();
      // The box shows the new credential's secrets (not the previous one's), and the list has its row.
      const shownId = page.locator(".secrets dd:first-of-type code");
      const previous = made.at(-1)?.clientId;
      await (previous ? shownId.filter({ hasNotText: previous }) : shownId).waitFor();
      const box = credentials.locator(".secrets");
      await box.getByText("Copy the secrets now: they are shown only this once.").waitFor();
      const codes = await box.locator("dd code").allInnerTexts();
      const [clientId, clientSecret, apiKey, apiSecret] = codes as [string, string, string, string];
      expect(made.map((m) => m.clientId)).not.toContain(clientId);
      made.push({ clientId, clientSecret, apiKey, apiSecret });
      await credentials.locator(".row", { hasText: clientId }).waitFor();
    }
    await credentials.scrollIntoViewIfNeeded();
    await shoot(page, "webapp-credentials.png", false);
    const token = async (m: { clientId: string; clientSecret: string }) =>
      (
        await page.request.post(`${system.gateway.url}/oauth/token`, {
          data: { grant_type: "client_credentials", client_id: m.clientId, client_secret: m.clientSecret },
        })
      ).status();
    expect(await token(made[0]!)).toBe(200);
    expect(await token(made[1]!)).toBe(200);
    // Listed without their secrets; after a reload the secrets are gone from the page.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: /Company/ }).waitFor();
    await credentials.locator(".row").nth(1).waitFor();
    expect(await credentials.locator(".secrets").count()).toBe(0);
    const listed = await credentials.innerText();
    for (const m of made) {
      expect(listed).toContain(m.clientId);
      expect(listed).toContain(m.apiKey);
      expect(listed).not.toContain(m.clientSecret);
      expect(listed).not.toContain(m.apiSecret);
    }
    // Revoke the first: marked revoked, and its secret no longer gets a token; the second still does.
    const firstRow = credentials.locator(".row", { hasText: made[0]!.clientId });
    await firstRow.getByRole("button", { name: "Revoke" }).click();
    await firstRow.getByText("Revoked").waitFor();
    expect(await credentials.locator(".row", { hasText: made[1]!.clientId }).getByText("Revoked").count()).toBe(0);
    expect(await token(made[0]!)).toBe(401);
    expect(await token(made[1]!)).toBe(200);
    expect(signedIn!.problems()).toEqual([]);
  }, 120_000);

  it("send at a time and the recycle bin: a case file scheduled for tomorrow waits as a draft showing its time (no Send button), goes to the recycle bin, and is restored from it still scheduled", async () => {
    const page = await adminPage();
    const badge = () => page.locator("h1 .badge").innerText();
    await go(page, "#/new", "New case file");
    await page.getByLabel("Title", { exact: true }).fill("Tidsindstillet aftale");
    await page
      .locator('input[type="file"]')
      .setInputFiles([{ name: "aftale.pdf", mimeType: "application/pdf", buffer: await makeLetterPdf("Aftale", ["En aftale til senere."]) }]);
    await page.locator('input[name="signer-0-name"]').fill("Sofie Senere");
    await page.locator('input[name="signer-0-email"]').fill("sofie@example.com");
    await page.getByLabel("Send at a time").check();
    // Tomorrow at 09:00 on the browser's clock: the scheduled send cannot fire while the test runs.
    const at = await page.evaluate(() => {
      const d = new Date(Date.now() + 86_400_000);
      d.setHours(9, 0, 0, 0);
      const two = (n: number) => String(n).padStart(2, "0");
      return { value: `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T09:00`, unix: Math.floor(d.getTime() / 1000) };
    });
    await page.getByLabel("Send at", { exact: true }).fill(at.value);
    await page.getByRole("button", { name: "Create the case file" }).click();
    await page.waitForURL(/#\/casefiles\/\d+$/, { timeout: 60_000 });
    await page.getByRole("heading", { level: 1, name: /Tidsindstillet aftale/ }).waitFor();
    expect(await badge()).toBe("Draft");
    expect(Number(await page.locator("[data-send-at]").getAttribute("data-send-at"))).toBe(at.unix);
    // Already sent for its time: no Send button, and the API's reason instead.
    await page
      .locator("[data-not-sendable]")
      .getByText(/goes out at its sendAt/)
      .waitFor();
    expect(await page.getByRole("button", { name: "Send the draft" }).count()).toBe(0);

    // To the recycle bin (after the browser's confirmation), found under Recycle bin, restored.
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Move to the recycle bin" }).click();
    await page.getByRole("button", { name: "Restore" }).waitFor();
    expect(await badge()).toBe("Deleted");
    await go(page, "#/", "Archive");
    await page.getByRole("button", { name: "Recycle bin" }).click();
    await page.getByRole("link", { name: "Tidsindstillet aftale" }).click();
    await page.getByRole("heading", { level: 1, name: /Tidsindstillet aftale/ }).waitFor();
    await page.getByRole("button", { name: "Restore" }).click();
    await page.getByRole("button", { name: "Move to the recycle bin" }).waitFor();
    expect(await badge()).toBe("Draft");
    // Restored as it was: still to go out tomorrow at its time, and nothing was mailed to the signer.
    expect(Number(await page.locator("[data-send-at]").getAttribute("data-send-at"))).toBe(at.unix);
    await page
      .locator("[data-not-sendable]")
      .getByText(/goes out at its sendAt/)
      .waitFor();
    expect(smtp.messages.filter((m) => m.to.includes("sofie@example.com"))).toEqual([]);
    expect(signedIn!.problems()).toEqual([]);
  }, 120_000);

  const members = {
    mia: { email: "mia@nordlys.example", name: "Mia Medlem", password: "mias-lange-adgangskode" },
    max: { email: "max@nordlys.example", name: "Max Medlem", password: "max-lange-adgangskode" },
  };

  /** The admin invites a member on the Company page; the member accepts through the mail's link. */
  async function inviteMember(adminPage: Page, who: { email: string; name: string; password: string }) {
    await adminPage.getByLabel("Email", { exact: true }).last().fill(who.email);
    await adminPage.getByLabel("Name", { exact: true }).last().fill(who.name);
    await adminPage.getByRole("button", { name: "Invite a user" }).click();
    await adminPage.getByText("The invitation is sent.").waitFor();
    const mail = await smtp.waitFor((m) => m.to.includes(who.email) && inviteLink(m) !== undefined, 30_000);
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(inviteLink(mail)!);
    await page.getByRole("heading", { name: "Accept the invitation" }).waitFor();
    await page.getByLabel("Your name").fill(who.name);
    await page.getByLabel(/New password/).fill(who.password);
    await page.getByRole("button", { name: "Create my account" }).click();
    // Accepting signs the new user in: the application opens.
    await page.getByRole("navigation").waitFor();
    expect(await page.locator(".who").innerText()).toContain(who.name);
    await context.close();
  }

  it("a member sees only their own case files, reads the company's profile but not its settings, and cannot configure the company, in the browser and through the API", async () => {
    const admin = await browser.newContext(DESKTOP);
    const { page: adminPage } = await open(admin, appUrl("#/company"));
    await signIn(adminPage, ADMIN);
    await adminPage.getByRole("heading", { level: 1, name: /Company/ }).waitFor();
    await inviteMember(adminPage, members.mia);
    await inviteMember(adminPage, members.max);
    // The company offers MitID: the members' create form shows it (read from the company's profile).
    const settings = adminPage.locator('form[aria-labelledby="settings"]');
    await settings.getByLabel("mitid.dk", { exact: true }).check();
    await settings.getByRole("button", { name: "Save", exact: true }).click();
    await settings.getByText("Saved.").waitFor();
    expect(await settings.getByLabel("mitid.dk", { exact: true }).isChecked()).toBe(true);

    // Mia saves a draft in the browser.
    const mia = await browser.newContext(DESKTOP);
    const { page: miaPage } = await open(mia, appUrl("#/new"));
    await signIn(miaPage, members.mia);
    await miaPage.getByRole("heading", { level: 1, name: "New case file" }).waitFor();
    // The profile loads after the form has drawn: wait for its method before counting.
    const eids = miaPage.getByRole("group", { name: /Electronic IDs/ });
    await eids.getByLabel("mitid.dk").waitFor();
    expect(await eids.getByRole("checkbox").count()).toBe(1);
    expect(await eids.getByLabel("mitid.dk").isChecked()).toBe(true);
    await miaPage.getByLabel("Title", { exact: true }).fill("Mias udkast");
    await miaPage
      .locator('input[type="file"]')
      .setInputFiles([{ name: "tilbud.pdf", mimeType: "application/pdf", buffer: await makeLetterPdf("Tilbud", ["Et tilbud."]) }]);
    await miaPage.locator('input[name="signer-0-name"]').fill("Kim Kunde");
    await miaPage.locator('input[name="signer-0-email"]').fill("kim@example.com");
    await miaPage.getByLabel("Save as a draft").check();
    await miaPage.getByRole("button", { name: "Create the case file" }).click();
    await miaPage.waitForURL(/#\/casefiles\/\d+$/, { timeout: 60_000 });
    const miasCaseFile = Number(/casefiles\/(\d+)/.exec(miaPage.url())![1]);
    expect(await miaPage.locator("h1 .badge").innerText()).toBe("Draft");
    // A member has no Webhooks or Company in the menu.
    expect(await miaPage.getByRole("navigation").getByRole("link").allInnerTexts()).toEqual(["Archive", "New case file"]);
    // At the administrators' addresses, typed in: a refusal page, and the API refuses the settings too.
    await go(miaPage, "#/company", "Not allowed");
    await miaPage.getByText("Only an administrator can configure the company.").waitFor();
    expect(seriousViolations(await runAxe(miaPage))).toEqual([]);
    await go(miaPage, "#/webhooks", "Not allowed");
    await miaPage.getByText("Only an administrator can configure webhooks.").waitFor();
    expect((await mia.request.get(`${system.gateway.url}/api/v3/company`)).status()).toBe(403);
    const profile = await mia.request.get(`${system.gateway.url}/api/v3/company/profile`);
    expect(await profile.json()).toEqual({ id: customerId, name: "Nordlys Ejendomme", language: "en", signingMethods: ["mitid.dk"] });

    // Max: neither Mia's draft nor the administrator's case file, in the archive or by address.
    const max = await browser.newContext(DESKTOP);
    const { page: maxPage } = await open(max, appUrl());
    await signIn(maxPage, members.max);
    await maxPage.getByRole("button", { name: "Drafts" }).click();
    await maxPage.getByText("No case files here.").waitFor();
    await maxPage.getByRole("button", { name: "Completed" }).click();
    await maxPage.getByText("No case files here.").waitFor();
    for (const id of [miasCaseFile, caseFileId]) {
      await maxPage.goto(appUrl(`#/casefiles/${id}`));
      await maxPage.getByText("This case file does not exist or is not yours to see.").waitFor();
    }
    await maxPage.goto(appUrl("#/company"));
    await maxPage.getByRole("heading", { level: 1, name: "Not allowed" }).waitFor();
    await maxPage.getByText("Only an administrator can configure the company.").waitFor();

    // The same through the API, with Max's session cookie and CSRF token: 404 and 403.
    const session = (await (await max.request.get(`${system.gateway.url}/api/v3/session`)).json()) as { csrfToken: string };
    expect((await max.request.get(`${system.gateway.url}/send/api/v1/casefiles/${miasCaseFile}`)).status()).toBe(404);
    expect((await max.request.get(`${system.gateway.url}/send/api/v1/casefiles/${caseFileId}`)).status()).toBe(404);
    const patch = await max.request.patch(`${system.gateway.url}/api/v3/company`, {
      data: { recycleBinDays: 1 },
      headers: { "X-CSRF-Token": session.csrfToken },
    });
    expect(patch.status()).toBe(403);
    // And the administrator sees Mia's draft.
    await go(adminPage, `#/casefiles/${miasCaseFile}`, /Mias udkast/);
    // The company back as the other tests expect it: no electronic ID.
    await go(adminPage, "#/company", /Company/);
    // Opened again, the form shows what the company holds (nothing stale from the first visit).
    expect(await settings.getByLabel("mitid.dk", { exact: true }).isChecked()).toBe(true);
    await settings.getByLabel("mitid.dk", { exact: true }).uncheck();
    await settings.getByRole("button", { name: "Save", exact: true }).click();
    await settings.getByText("Saved.").waitFor();
    await Promise.all([admin.close(), mia.close(), max.close()]);
  }, 180_000);

  /** The screenshots README.md shows (docs/screenshots/, see keepScreenshot). */
  const README_SHOTS = ["webapp-sign-in-en-desktop.png", "webapp-archive-en-desktop.png", "webapp-company-en-desktop.png", "webapp-create-da-phone.png"];

  /** The main screens, signed in as the administrator. */
  const SCREENS = [
    { hash: "#/", name: "archive" },
    { hash: "#/new", name: "create" },
    { hash: "#/webhooks", name: "webhooks" },
    { hash: () => `#/webhooks/${subscriptionId}`, name: "webhook" },
    { hash: "#/company", name: "company" },
    { hash: () => `#/casefiles/${caseFileId}`, name: "case-file" },
  ] as const;

  it.each([
    { lang: "en", device: "desktop", options: DESKTOP, heading: "Sign in" },
    { lang: "da", device: "phone", options: PHONE, heading: "Log ind" },
  ])(
    "axe finds no serious or critical violation on any page: $lang on a $device",
    async ({ lang, device, options, heading }) => {
      const context = await browser.newContext({ ...options, locale: lang });
      await context.addInitScript(`localStorage.setItem("esign.language", ${JSON.stringify(lang)})`);
      const { page, problems } = await open(context, appUrl());
      await page.getByRole("heading", { name: heading }).waitFor();
      expect(await page.getAttribute("html", "lang")).toBe(lang);
      const violations: Record<string, string[]> = {};
      const width = options.viewport.width;
      const check = async (name: string) => {
        await page.locator(".loading").waitFor({ state: "detached" });
        violations[name] = seriousViolations(await runAxe(page));
        // At a phone's width nothing is wider than the screen: no sideways scrolling.
        expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);
        const shot = `webapp-${name}-${lang}-${device}.png`;
        if (README_SHOTS.includes(shot)) await shoot(page, shot);
      };
      await check("sign-in");
      await page.locator('input[type="email"]').fill(ADMIN.email);
      await page.locator('input[type="password"]').fill(ADMIN.password);
      await page.locator('button[type="submit"]').click();
      await page.getByRole("navigation").waitFor();
      for (const screen of SCREENS) {
        const hash = typeof screen.hash === "function" ? screen.hash() : screen.hash;
        await page.goto(appUrl(hash));
        await page.locator("main h1").waitFor();
        await check(screen.name);
      }
      expect(violations).toEqual(Object.fromEntries(Object.keys(violations).map((k) => [k, []])));
      expect(problems()).toEqual([]);
      await context.close();
    },
    120_000,
  );
});
