import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createCustomer } from "@esign/accounts";
import { TEST_ENCRYPTION_KEY, getToken } from "../support/api";
import { describeInBrowser, keepScreenshot, launchChromium, pixelStats, runAxe, seriousViolations, watchProblems, type AxeResults } from "../support/browser";
import { makeLetterPdf } from "../support/pdf";
import { createCase } from "../support/signing-api";
import { startSmtpSink, type SinkMessage, type SmtpSink } from "../support/smtp-sink";
import { startSystem, type System } from "../support/system";
import { createWorld, type World } from "../support/webhook-world";

/*
 * A signer's whole visit in a real browser (Debian's Chromium): the link from the real request mail
 * (SMTP sink), the documents rendered inline by PDF.js page by page, a signature drawn by touch on a
 * 375 px phone (Danish) and with a mouse on a desktop (Swedish), a keyboard-only signer (Norwegian),
 * the confirmation, and axe-core over every state of the page.
 */

let system: System;
let world: World;
let smtp: SmtpSink;
let browser: Browser;
let token: string;
let contract: Buffer;
let appendix: Buffer;
let shots: string;

const PHONE = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 900 } };

describeInBrowser("the signing page in Chromium", () => {
  beforeAll(async () => {
    smtp = await startSmtpSink();
    world = await createWorld("browser");
    system = await startSystem(["casefile-worker", "notifier", "webhook-dispatcher"], world.env({ SMTP_URL: smtp.url }), { JOB_POLL_LIMIT_PER_MINUTE: "0" });
    const customer = await createCustomer(world.db, { name: "Ejendomsselskabet Nord", secureSigningMethods: ["mitid.dk"] }, TEST_ENCRYPTION_KEY);
    token = await getToken(system.gateway.url, customer);
    [contract, appendix] = await Promise.all([
      makeLetterPdf(
        "Lejekontrakt",
        [
          "Mellem udlejer Ejendomsselskabet Nord ApS og lejer indgås følgende aftale om leje af lejligheden beliggende Søndergade 12, 2. th., 8000 Aarhus C.",
          "Lejemålet overtages den 1. december 2026. Den månedlige leje udgør 9.850 kr., som betales forud senest den første hverdag i måneden.",
          "Depositum svarende til tre måneders leje indbetales inden overtagelsen. Lejer har pligt til at vedligeholde lejemålets indre.",
          "Opsigelsesvarslet er tre måneder til den første i en måned for begge parter.",
        ],
        2,
      ),
      makeLetterPdf("Husorden", ["Der skal være ro i ejendommen mellem kl. 22 og 7.", "Cykler stilles i cykelkælderen."]),
    ]);
    browser = await launchChromium();
    shots = await mkdtemp(path.join(process.env.ESIGN_TEST_DIR ?? os.tmpdir(), "signing-page-"));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await smtp?.stop();
    await world?.close();
  });

  const linkIn = (m: SinkMessage) => /http:\/\/127\.0\.0\.1:\d+\/sign\/[A-Za-z0-9_-]{43}/.exec(`${m.text}\n${m.html ?? ""}`)?.[0];

  const TITLES: Record<string, string> = {
    da: "Lejekontrakt, Søndergade 12",
    sv: "Hyresavtal, Storgatan 5",
    no: "Leieavtale, Storgata 7",
    fr: "Bail, rue de la Paix 3",
  };

  /** A case file for one signer in `language`, sent by email; resolves with the link from the mail that arrived. */
  async function requestFor(language: string, signer: { name: string; email: string }, methods: string[], caseFile: Record<string, unknown> = {}) {
    const created = await createCase(
      system.gateway.url,
      token,
      {
        caseFile: {
          title: TITLES[language],
          language,
          ...caseFile,
          signers: [{ ...signer, role: "Lejer", enableInsecureSigning: true, insecureSigningMethods: methods, emailFormat: "html" }],
          documents: [
            { title: "Lejekontrakt", name: "lejekontrakt.pdf" },
            { title: "Husorden", name: "husorden.pdf", signable: false },
          ],
        },
      },
      [
        { name: "lejekontrakt.pdf", content: contract },
        { name: "husorden.pdf", content: appendix },
      ],
    );
    const link = created.links[signer.name]!;
    const mail = await smtp.waitFor((m) => m.to.includes(signer.email), 30_000);
    expect(linkIn(mail)).toBe(link.url);
    return { mail, link: linkIn(mail)!, signerId: link.signerId, caseFileId: created.caseFileId };
  }

  async function openPage(context: BrowserContext, url: string): Promise<{ page: Page; problems: string[]; requests: string[] }> {
    const page = await context.newPage();
    const problems = watchProblems(page);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(url, { waitUntil: "load" });
    // Both documents rendered by PDF.js: 2 pages of the contract, 1 of the house rules.
    await page.locator('.viewer[data-rendered="2"]').waitFor({ timeout: 30_000 });
    await page.locator('.viewer[data-rendered="1"]').waitFor({ timeout: 30_000 });
    return { page, problems, requests };
  }

  /** What every visit must show: the documents really drawn, their text readable, nothing from elsewhere, no error. */
  async function expectDocumentsShown(page: Page, requests: string[], labels: { toSign: string; forInformation: string; pageOf: string }) {
    expect(await page.locator("figure.page").count()).toBe(3);
    const canvases = page.locator("figure.page canvas");
    for (let i = 0; i < 3; i++) {
      const png = await canvases.nth(i).screenshot();
      const stats = await pixelStats(page, png);
      expect(stats.nonWhite / stats.samples).toBeGreaterThan(0.005);
    }
    // PDF.js's text layer: the document's own words are in the page, for screen readers and selection.
    const text = await page.locator(".viewer").first().locator(".textLayer").first().innerText();
    expect(text).toContain("Lejekontrakt");
    expect(text).toContain("Søndergade 12");
    expect(await page.locator("figure.page figcaption").first().innerText()).toBe(labels.pageOf);
    expect(await page.locator("article.doc").nth(0).locator(".badge").innerText()).toBe(labels.toSign);
    expect(await page.locator("article.doc").nth(1).locator(".badge").innerText()).toBe(labels.forInformation);
    const origin = new URL(system.gateway.url).origin;
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith("data:") && !u.startsWith("blob:"))).toEqual([]);
    expect(requests.some((u) => u.includes("/sign-assets/pdfjs/pdf.worker.min.mjs"))).toBe(true);
  }

  const axeReport: Record<string, AxeResults["violations"]> = {};
  async function expectAccessible(page: Page, label: string) {
    const results = await runAxe(page);
    axeReport[label] = results.violations;
    expect(seriousViolations(results)).toEqual([]);
    expect(results.passes.length).toBeGreaterThan(10);
  }

  async function shoot(page: Page, name: string, fullPage = true) {
    const file = path.join(shots, name);
    await page.screenshot({ path: file, fullPage });
    await keepScreenshot(file, name);
  }

  async function drawWithTouch(page: Page) {
    const box = (await page.locator("#pad").boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const point = (dx: number, dy: number) => [{ x: box.x + box.width * dx, y: box.y + box.height * dy, id: 1 }];
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: point(0.1, 0.6) });
    for (let i = 1; i <= 24; i++) {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: point(0.1 + i * 0.03, 0.6 - Math.sin(i / 2.5) * 0.25) });
    }
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await cdp.detach();
  }

  async function drawWithMouse(page: Page) {
    const box = (await page.locator("#pad").boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.7);
    await page.mouse.down();
    for (let i = 1; i <= 30; i++) await page.mouse.move(box.x + box.width * (0.1 + i * 0.025), box.y + box.height * (0.55 + Math.cos(i / 3) * 0.2));
    await page.mouse.up();
  }

  async function padInk(page: Page) {
    return pixelStats(page, await page.locator("#pad").screenshot());
  }

  /**
   * The page after a drawn signature is sent: the script POSTs it and, once accepted, reloads the page
   * in its signed state. (Waiting for the URL proved nothing: the page is already at it.) A refusal
   * shows in the form's error line instead; the test then fails with that text and the gateway's
   * error lines, not with a bare time-out. 60 s: on a starved CI machine the POST and the reload
   * share two cores with five test shards.
   */
  async function signedState(page: Page) {
    const done = page.locator("section.done");
    const refused = page.locator("form[data-method] .err").filter({ hasText: /\S/ });
    try {
      await done.or(refused).first().waitFor({ timeout: 60_000 });
    } catch (err) {
      throw new Error(`no signed page after 60 s at ${page.url()}\n${gatewayErrors()}`, { cause: err });
    }
    if (await refused.count()) throw new Error(`signing refused in the page: ${await refused.first().innerText()}\n${gatewayErrors()}`);
    return done;
  }

  const gatewayErrors = (): string => system.gateway.linesAt(["error", "warn"]).join("\n");

  async function signerRow(id: number) {
    return world.db.signer.findUniqueOrThrow({ where: { id } });
  }

  it("Danish, on a 375 px phone: reads the documents, draws the signature with a finger, signs, sees the confirmation", async () => {
    const { mail, link, signerId, caseFileId } = await requestFor("da", { name: "Mette Ærø Mortensen", email: "mette@example.com" }, ["draw"]);
    expect(mail.subject).toBe("Underskriv venligst: Lejekontrakt, Søndergade 12");
    expect(mail.html).toContain('<html lang="da">');

    const context = await browser.newContext(PHONE);
    const { page, problems, requests } = await openPage(context, link);
    expect(await page.getAttribute("html", "lang")).toBe("da");
    expect(await page.locator("h1").innerText()).toBe("Lejekontrakt, Søndergade 12");
    await expectDocumentsShown(page, requests, { toSign: "Skal underskrives", forInformation: "Til orientering", pageOf: "Side 1 af 2" });
    // Nothing wider than the phone: no sideways scrolling.
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375);
    await expectAccessible(page, "da phone, before signing");
    await shoot(page, "signing-page-da-phone.png");

    // Submitting an empty pad is refused in the page, in Danish.
    await page.getByRole("button", { name: "Underskriv med denne tegning" }).click();
    expect(await page.locator("form[data-method=draw] .err").innerText()).toBe("Tegn først din underskrift i feltet, eller skriv dit navn under det.");

    await page.locator("#pad").scrollIntoViewIfNeeded();
    const blank = await padInk(page);
    await drawWithTouch(page);
    const inked = await padInk(page);
    expect(inked.nonWhite).toBeGreaterThan(blank.nonWhite + 20);

    await page.getByRole("button", { name: "Underskriv med denne tegning" }).click();
    const done = await signedState(page);
    expect(await done.locator("h2").innerText()).toBe("Underskrevet");
    expect(await done.innerText()).toMatch(/Tak! Din underskrift er registreret\. Du underskrev den \d{1,2}\. \p{L}+ \d{4} kl\. \d{2}\.\d{2} UTC\./u);
    expect(await page.locator("#sign").count()).toBe(0);
    // The contract is drawn again: its 2 pages, or more once the case file is sealed (the audit trail
    // follows the original pages), depending on whether finalization beat this reload.
    const contractViewer = page.locator(".viewer").first();
    await contractViewer.and(page.locator("[data-rendered]")).waitFor({ timeout: 30_000 });
    expect(Number(await contractViewer.getAttribute("data-rendered"))).toBeGreaterThanOrEqual(2);
    await expectAccessible(page, "da phone, signed");
    await shoot(page, "signing-page-da-phone-signed.png", false);

    const row = await signerRow(signerId);
    expect(row).toMatchObject({ status: 4, signatureMethod: "draw" });
    expect(row.actionUserAgent).toContain("Chrome");

    // Once sealed, the page shows the signed contract: the original 2 pages, then the audit trail.
    const deadline = Date.now() + 30_000;
    const sealedContract = () => world.db.document.findFirst({ where: { caseFileId, signable: true, sealedAt: { not: null } } });
    while (!(await sealedContract()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await sealedContract()).not.toBeNull();
    await page.reload();
    await contractViewer.and(page.locator("[data-rendered]")).waitFor({ timeout: 30_000 });
    expect(Number(await contractViewer.getAttribute("data-rendered"))).toBeGreaterThan(2);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("Swedish, on a desktop: reads the documents, draws the signature with the mouse, signs, sees the confirmation", async () => {
    const { mail, link, signerId } = await requestFor("sv", { name: "Åsa Lindqvist", email: "asa@example.com" }, ["draw", "text"]);
    expect(mail.subject).toBe("Dokument att signera: Hyresavtal, Storgatan 5");
    expect(mail.text).toContain("Hej Åsa Lindqvist,");

    const context = await browser.newContext(DESKTOP);
    const { page, problems, requests } = await openPage(context, link);
    expect(await page.getAttribute("html", "lang")).toBe("sv");
    await expectDocumentsShown(page, requests, { toSign: "Att signera", forInformation: "För kännedom", pageOf: "Sida 1 av 2" });
    expect(await page.getByRole("heading", { name: "Rita din signatur" }).isVisible()).toBe(true);
    expect(await page.getByLabel("Ditt fullständiga namn").isVisible()).toBe(true);
    await expectAccessible(page, "sv desktop, before signing");

    await page.locator("#pad").scrollIntoViewIfNeeded();
    const blank = await padInk(page);
    await drawWithMouse(page);
    // "Rensa ritningen" empties the pad; drawing again fills it.
    await page.getByRole("button", { name: "Rensa ritningen" }).click();
    expect((await padInk(page)).nonWhite).toBe(blank.nonWhite);
    await drawWithMouse(page);
    expect((await padInk(page)).nonWhite).toBeGreaterThan(blank.nonWhite + 20);
    await shoot(page, "signing-page-sv-desktop.png");

    await page.getByRole("button", { name: "Signera med den här ritningen" }).click();
    const done = await signedState(page);
    expect(await done.innerText()).toMatch(/Tack! Din signatur är registrerad\. Du signerade den \d{1,2} \p{L}+ \d{4} kl\. \d{2}:\d{2} UTC\./u);
    await expectAccessible(page, "sv desktop, signed");
    expect(await signerRow(signerId)).toMatchObject({ status: 4, signatureMethod: "draw" });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("Norwegian, keyboard only: skips to signing, writes the name on the pad instead of drawing, signs with Enter", async () => {
    const { link, signerId } = await requestFor("no", { name: "Ola Nordmann", email: "ola@example.com" }, ["draw"]);
    const context = await browser.newContext(PHONE);
    const { page, problems } = await openPage(context, link);
    expect(await page.getAttribute("html", "lang")).toBe("no");
    const blank = await padInk(page);

    // The first Tab reaches the skip link; following it lands on the signing section.
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.textContent")).toBe("Gå til signering");
    await page.keyboard.press("Enter");
    expect(await page.evaluate("location.hash")).toBe("#sign");
    // From the signing section, Tab reaches the field that writes the name on the pad.
    for (let i = 0; i < 10 && (await page.evaluate("document.activeElement.id")) !== "pad-name"; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.id")).toBe("pad-name");
    await page.keyboard.type("Ola Nordmann");
    expect((await padInk(page)).nonWhite).toBeGreaterThan(blank.nonWhite + 20);
    await page.keyboard.press("Tab"); // "Tøm tegningen"
    await page.keyboard.press("Tab"); // "Signer med denne tegningen"
    expect(await page.evaluate("document.activeElement.textContent")).toBe("Signer med denne tegningen");
    await page.keyboard.press("Enter");
    expect(await (await signedState(page)).locator("h2").innerText()).toBe("Signert");
    await expectAccessible(page, "no phone, signed by keyboard");
    expect(await signerRow(signerId)).toMatchObject({ status: 4, signatureMethod: "draw" });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("French, sensitive documents: the identity page and the provider's page in French, then the documents and a typed signature", async () => {
    const { mail, link, signerId } = await requestFor("fr", { name: "Camille Durand", email: "camille@example.com" }, ["text"], { sensitiveData: true });
    expect(mail.subject).toBe("Document à signer : Bail, rue de la Paix 3");
    expect(mail.text).toContain("Les documents contiennent des données sensibles.");

    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(link);
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    expect(await page.locator("h2").innerText()).toBe("Confirmez votre identité");
    expect(await page.locator(".viewer").count()).toBe(0);
    await expectAccessible(page, "fr identity page");

    await Promise.all([page.waitForURL(/\/idp-simulator\/authorize/), page.getByRole("button", { name: "Confirmer avec MitID" }).click()]);
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    expect(await page.locator(".banner").innerText()).toBe("SIMULATEUR de fournisseur d’identité — aucune eID réelle");
    await expectAccessible(page, "fr identity provider (simulator)");
    await shoot(page, "identity-simulator-fr.png", false);

    await Promise.all([page.waitForURL(link), page.getByRole("button", { name: "Approuver (simulé)" }).click()]);
    await page.locator('.viewer[data-rendered="2"]').waitFor({ timeout: 30_000 });
    await page.getByLabel("Votre nom complet").fill("Camille Durand");
    await Promise.all([page.waitForURL(`${link}/sign`), page.getByRole("button", { name: "Signer", exact: true }).click()]);
    expect(await page.locator("h1").innerText()).toBe("Signé");
    expect(await page.locator("main p").first().innerText()).toBe("Merci : votre signature est enregistrée.");
    expect(await signerRow(signerId)).toMatchObject({
      status: 4,
      signatureMethod: "text",
      identityMethod: "mitid.dk",
      identityProvider: "Identity provider SIMULATOR",
    });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("axe-core found no serious or critical violation in any of the states above", () => {
    // The full list (including minor and moderate findings) goes to the test log for the record.
    process.stderr.write(
      `axe-core violations by page state: ${JSON.stringify(Object.fromEntries(Object.entries(axeReport).map(([k, v]) => [k, v.map((x) => `${x.id} (${x.impact ?? "?"})`)])))}\n`,
    );
    expect(Object.keys(axeReport).length).toBe(7);
  });
});
