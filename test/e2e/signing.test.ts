import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { trackingId } from "@esign/db";
import { closeTestDb, getToken, newCustomer, testDb, TEST_ENCRYPTION_KEY } from "../support/api";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import type { ServiceProcess } from "../support/services";
import { caseFileEvents, createCase, getAs, makePng, postForm, postJson, signerEvents, type SignPage } from "../support/signing-api";
import { startSystem, type System } from "../support/system";

let system: System;
let gateway: ServiceProcess;
let token: string;
let contract: Buffer;
let appendix: Buffer;

const files = () => [
  { name: "contract.pdf", content: contract },
  { name: "appendix.pdf", content: appendix },
];

/** One signer in round 0, allowed to type their name; Contract for Employee, Appendix not signable. */
const oneSigner = (signer: Record<string, unknown> = {}, caseFile: Record<string, unknown> = {}) =>
  validCaseFile({
    signers: [
      { name: "Alice Andersen", email: "alice@example.com", role: "Employee", enableInsecureSigning: true, insecureSigningMethods: ["text"], ...signer },
    ],
    documents: [
      { title: "Contract", name: "contract.pdf", roles: ["Employee"] },
      { title: "Appendix", name: "appendix.pdf", signable: false },
    ],
    ...caseFile,
  });

const create = (payload: unknown) => createCase(gateway.url, token, payload, files());
const signerRow = (id: number) => testDb().signer.findUniqueOrThrow({ where: { id } });
const documentsOf = (caseFileId: number) => testDb().document.findMany({ where: { caseFileId }, orderBy: { id: "asc" } });

beforeAll(async () => {
  system = await startSystem(["casefile-worker"], {}, { JOB_POLL_LIMIT_PER_MINUTE: "0" });
  gateway = system.gateway;
  token = await getToken(gateway.url, await newCustomer());
  [contract, appendix] = await Promise.all([makePdf("Contract"), makePdf("Appendix", 2)]);
});

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

describe("the signer's pages in the signer's language", () => {
  const htmlOf = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, init);
    return {
      status: res.status,
      lang: /<html lang="([^"]+)">/.exec(await res.clone().text())?.[1],
      language: res.headers.get("content-language"),
      text: await res.text(),
    };
  };

  it("writes the page in the signer's language, else the case file's, else English", async () => {
    const own = await create(oneSigner({ language: "de" }, { language: "da" }));
    const german = await htmlOf(Object.values(own.links)[0]!.url);
    expect(german).toMatchObject({ status: 200, lang: "de", language: "de" });
    expect(german.text).toContain("Zu unterschreiben");
    expect(german.text).toContain("Zur Kenntnisnahme");
    expect(german.text).toContain("Ihr vollständiger Name");

    const fromCaseFile = await htmlOf(Object.values((await create(oneSigner({}, { language: "fi" }))).links)[0]!.url);
    expect(fromCaseFile).toMatchObject({ lang: "fi", language: "fi" });
    expect(fromCaseFile.text).toContain("Allekirjoitettava");

    const english = await htmlOf(Object.values((await create(oneSigner())).links)[0]!.url, { headers: { "accept-language": "da" } });
    expect(english).toMatchObject({ lang: "en", language: "en" });
    expect(english.text).toContain("To sign");
  });

  it("refuses in the signer's language on pages and in English in JSON; an unknown link follows the browser's language", async () => {
    const unknown = `${gateway.url}/sign/${"A".repeat(43)}`;
    const swedish = await htmlOf(unknown, { headers: { "accept-language": "sv-SE,sv;q=0.9,en;q=0.5" } });
    expect(swedish).toMatchObject({ status: 404, lang: "sv" });
    expect(swedish.text).toContain("Den här signeringslänken finns inte.");
    expect((await getAs(unknown)).body).toMatchObject({ error: "not_found", message: "This signing link does not exist" });

    const rounds = await create(validCaseFile({ language: "nl" }));
    const waiting = await htmlOf(rounds.links["Bob Berg"]!.url);
    expect(waiting).toMatchObject({ status: 409, lang: "nl" });
    expect(waiting.text).toContain("U bent nog niet aan de beurt om te ondertekenen.");

    // A form post that cannot be used: the refusal page leads back to the signing page.
    const danish = await create(oneSigner({}, { language: "da" }));
    const link = Object.values(danish.links)[0]!;
    const empty = await postForm(`${link.url}/sign`, { method: "text", value: "  " }, { accept: "text/html" });
    expect(empty.status).toBe(400);
    const refusal = await empty.text();
    expect(refusal).toContain('<html lang="da">');
    expect(refusal).toContain("Din underskrift kunne ikke læses. Prøv venligst igen.");
    expect(refusal).toContain(`<a href="${link.url}">Tilbage til underskriftssiden</a>`);

    const signed = await postForm(`${link.url}/sign`, { method: "text", value: "Alice Andersen" }, { accept: "text/html" });
    expect(signed.status).toBe(200);
    const thanks = await signed.text();
    expect(thanks).toContain("<h1>Underskrevet</h1>");
    expect(thanks).toContain("Tak! Din underskrift er registreret.");
    const again = await htmlOf(link.url, { method: "GET" });
    expect(again.text).toMatch(/Du underskrev den \d{1,2}\. \p{L}+ \d{4} kl\. \d{2}\.\d{2} UTC\./u);
    const twice = await postForm(`${link.url}/sign`, { method: "text", value: "Alice Andersen" }, { accept: "text/html" });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toMatch(/Du har allerede underskrevet disse dokumenter \(\d{1,2}\. \p{L}+ \d{4} kl\. \d{2}\.\d{2} UTC\)\./u);

    const french = Object.values((await create(oneSigner({ language: "fr" }))).links)[0]!;
    const rejected = await postForm(`${french.url}/reject`, { reason: "Pas d’accord" }, { accept: "text/html" });
    expect(await rejected.text()).toContain("Vous avez refusé la demande de signature. L’expéditeur en est informé.");
  });
});

describe("the signing page", () => {
  it("answers JSON with every document for visibilityMode 0, the role rules and the allowed methods, and counts the opening", async () => {
    const cf = await create(validCaseFile());
    const alice = cf.links["Alice Andersen"]!;
    const page = await getAs<SignPage>(alice.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const docs = await documentsOf(cf.caseFileId);
    expect(page.body).toMatchObject({
      signer: { id: alice.signerId, name: "Alice Andersen", role: "Employee", status: 1 },
      caseFile: { id: cf.caseFileId, title: "Employment contract", status: 1, visibilityMode: 0 },
      state: "pending",
      canSign: true,
      methods: { insecure: ["text", "draw"], secure: [] },
      links: { sign: `${alice.url}/sign`, reject: `${alice.url}/reject`, secureStart: {} },
    });
    expect(page.body.documents).toEqual([
      { id: docs[0]!.id, title: "Contract", name: "contract.pdf", signable: true, maySign: true, url: `${alice.url}/documents/${docs[0]!.id}` },
      { id: docs[1]!.id, title: "Appendix", name: "appendix.pdf", signable: false, maySign: false, url: `${alice.url}/documents/${docs[1]!.id}` },
    ]);

    const opened = await signerEvents(alice.signerId, "sign.signer.opened");
    expect(opened).toHaveLength(1);
    expect(opened[0]!.payload).toEqual({ id: alice.signerId, caseFile: { id: cf.caseFileId, status: 1 } });
    expect((await signerRow(alice.signerId)).openedAt).not.toBeNull();

    // A reload within 10 s is the same opening: no event storm.
    expect((await getAs(alice.url)).status).toBe(200);
    expect(await signerEvents(alice.signerId, "sign.signer.opened")).toHaveLength(1);
    // Once the window has passed, the next opening counts again.
    await testDb().signer.update({ where: { id: alice.signerId }, data: { openedAt: new Date(Date.now() - 11_000) } });
    expect((await getAs(alice.url, "text/html")).status).toBe(200);
    expect(await signerEvents(alice.signerId, "sign.signer.opened")).toHaveLength(2);
  });

  it("renders an HTML page by default, with every value escaped and a strict CSP", async () => {
    const cf = await create(oneSigner({ name: `Eve "<img src=x onerror=alert(1)>"` }, { title: "Deal <script>alert(1)</script> & more" }));
    const link = Object.values(cf.links)[0]!;
    const res = await fetch(link.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    const html = await res.text();
    expect(html).toContain("Deal &lt;script&gt;alert(1)&lt;/script&gt; &amp; more");
    expect(html).toContain("Eve &quot;&lt;img src=x onerror=alert(1)&gt;&quot;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain(`action="${link.url}/sign"`);
    expect(html).toContain(`action="${link.url}/reject"`);
    expect(await signerEvents(link.signerId, "sign.signer.opened")).toHaveLength(1);
  });

  it("loads its script and PDF.js from this gateway only: no inline script, a CSP that allows 'self' and nothing else", async () => {
    const cf = await create(oneSigner({ insecureSigningMethods: ["draw"] }));
    const res = await fetch(Object.values(cf.links)[0]!.url);
    const csp = res.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "default-src 'none'",
      "script-src 'self';",
      "worker-src 'self';",
      "font-src 'self';",
      "connect-src 'self';",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => m[1]!.trim())).toEqual(['type="module" src="/sign-assets/signing-page.js"', 'type="application/json" id="esign-page-data"']);
    const data = JSON.parse(scripts[1]![2]!) as { pdfjs: { module: string; worker: string } };
    expect(data.pdfjs).toMatchObject({ module: "/sign-assets/pdfjs/pdf.min.mjs", worker: "/sign-assets/pdfjs/pdf.worker.min.mjs" });
    for (const asset of [
      "/sign-assets/signing-page.js",
      data.pdfjs.module,
      data.pdfjs.worker,
      "/sign-assets/pdfjs/standard_fonts/LiberationSans-Regular.ttf",
    ]) {
      const file = await fetch(`${gateway.url}${asset}`);
      expect([asset, file.status]).toEqual([asset, 200]);
      expect(file.headers.get("x-content-type-options")).toBe("nosniff");
      if (asset.endsWith("js")) expect(file.headers.get("content-type")).toMatch(/^text\/javascript/);
      await file.arrayBuffer();
    }
    for (const asset of [
      "/sign-assets/other.js",
      "/sign-assets/pdfjs/pdf.mjs.map",
      "/sign-assets/pdfjs/package.json",
      "/sign-assets/pdfjs/web/viewer.html",
      "/sign-assets/pdfjs/cmaps/..%2F..%2Fpackage.json",
      "/sign-assets/pdfjs/standard_fonts/nope.ttf",
    ]) {
      expect([asset, (await fetch(`${gateway.url}${asset}`)).status]).toEqual([asset, 404]);
    }
  });

  it("visibilityMode 1 shows only the documents the signer must sign, and serves only those PDFs", async () => {
    const payload = validCaseFile({
      visibilityMode: 1,
      documents: [
        { title: "Contract", name: "contract.pdf", roles: ["Employee"] },
        { title: "Appendix", name: "appendix.pdf", roles: ["Manager"] },
      ],
      signers: [
        { name: "Alice Andersen", role: "Employee", email: "a@example.com", enableInsecureSigning: true },
        { name: "Bob Berg", role: "Manager", email: "b@example.com", enableInsecureSigning: true },
      ],
    });
    const cf = await create(payload);
    const [contractDoc, appendixDoc] = await documentsOf(cf.caseFileId);
    const alice = cf.links["Alice Andersen"]!;
    const bob = cf.links["Bob Berg"]!;

    const alicePage = await getAs<SignPage>(alice.url);
    expect(alicePage.body.documents!.map((d) => [d.title, d.maySign])).toEqual([["Contract", true]]);
    // An empty insecureSigningMethods list with insecure signing enabled means all three.
    expect(alicePage.body.methods).toEqual({ insecure: ["text", "draw", "image"], secure: [] });
    expect((await getAs<SignPage>(bob.url)).body.documents!.map((d) => d.title)).toEqual(["Appendix"]);

    const pdf = await fetch(`${alice.url}/documents/${contractDoc!.id}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await pdf.arrayBuffer()).equals(contract)).toBe(true);

    const hidden = await getAs(`${alice.url}/documents/${appendixDoc!.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe("not_found");
    // A document of another case file is as invisible as a missing one.
    const other = await create(oneSigner());
    const [otherDoc] = await documentsOf(other.caseFileId);
    expect((await getAs(`${alice.url}/documents/${otherDoc!.id}`)).status).toBe(404);
    expect((await getAs(`${alice.url}/documents/not-a-number`)).status).toBe(404);
  });

  it("visibilityMode 0 shows and serves every document, marking which ones this role may sign", async () => {
    const cf = await create(
      validCaseFile({
        documents: [
          { title: "Contract", name: "contract.pdf", roles: ["Employee"] },
          { title: "Appendix", name: "appendix.pdf", roles: ["Manager"] },
        ],
      }),
    );
    const alice = cf.links["Alice Andersen"]!;
    const page = await getAs<SignPage>(alice.url);
    expect(page.body.documents!.map((d) => [d.title, d.maySign])).toEqual([
      ["Contract", true],
      ["Appendix", false],
    ]);
    const appendixPdf = await fetch(page.body.documents![1]!.url);
    expect(appendixPdf.status).toBe(200);
    expect(Buffer.from(await appendixPdf.arrayBuffer()).equals(appendix)).toBe(true);
  });

  it("answers 404 not_found for unknown and malformed tokens, as JSON or as a page", async () => {
    const unknown = await getAs(`${gateway.url}/sign/${"A".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: "not_found", statusCode: 404 });
    expect((await getAs(`${gateway.url}/sign/short`)).status).toBe(404);
    const page = await fetch(`${gateway.url}/sign/${"B".repeat(43)}`);
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect((await postJson(`${gateway.url}/sign/${"A".repeat(43)}/sign`, { method: "text", value: "x" })).status).toBe(404);
  });
});

describe("signing", () => {
  it("signs with a typed name: 200, signer status 4, one signed event; a second signature is 409 and changes nothing", async () => {
    const cf = await create(
      validCaseFile({ signers: [{ ...validCaseFile().caseFile.signers[0], successUrl: "https://example.com/thanks" }, validCaseFile().caseFile.signers[1]] }),
    );
    const alice = cf.links["Alice Andersen"]!;
    const signed = await postJson(`${alice.url}/sign`, { method: "text", value: "  Alice Andersen " });
    expect(signed.status).toBe(200);
    expect(signed.body).toEqual({ status: "signed", signerId: alice.signerId, redirectUrl: "https://example.com/thanks" });

    const row = await signerRow(alice.signerId);
    expect(row).toMatchObject({ status: 4, signatureMethod: "text", signatureValue: "Alice Andersen" });
    expect(row.signedAt).toBeInstanceOf(Date);
    const events = await signerEvents(alice.signerId, "sign.signer.signed");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ topic: "signer", payload: { id: alice.signerId, caseFile: { id: cf.caseFileId, status: 1 } } });

    const again = await postJson(`${alice.url}/sign`, { method: "text", value: "Alice again" });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("already_signed");
    expect(await signerRow(alice.signerId)).toMatchObject({ status: 4, signatureValue: "Alice Andersen", signedAt: row.signedAt });
    expect(await signerEvents(alice.signerId, "sign.signer.signed")).toHaveLength(1);
    expect((await postJson(`${alice.url}/reject`, {})).status).toBe(409);

    // The page stays readable, read-only, and viewing it is not a new opening.
    const openedBefore = (await signerEvents(alice.signerId, "sign.signer.opened")).length;
    const page = await getAs<SignPage>(alice.url);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ state: "signed", canSign: false, signatureMethod: "text", methods: { insecure: [], secure: [] } });
    expect(await signerEvents(alice.signerId, "sign.signer.opened")).toHaveLength(openedBefore);
  });

  it("signs through the plain HTML form and redirects to successUrl with 303", async () => {
    const cf = await create(oneSigner({ successUrl: "https://example.com/after-signing" }));
    const link = Object.values(cf.links)[0]!;
    const res = await postForm(`${link.url}/sign`, { method: "text", value: "Alice Andersen" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://example.com/after-signing");
    expect((await signerRow(link.signerId)).status).toBe(4);
  });

  it("refuses a method the signer may not use with 400 naming it, and changes nothing", async () => {
    const textOnly = Object.values((await create(oneSigner({ insecureSigningMethods: ["text"] }))).links)[0]!;
    const draw = await postJson(`${textOnly.url}/sign`, { method: "draw", value: `data:image/png;base64,${makePng().toString("base64")}` });
    expect(draw.status).toBe(400);
    expect(draw.body.error).toBe("method_not_allowed");
    expect(draw.body.message).toContain('"draw"');
    expect(draw.body.message).toContain("allowed: text");

    const secure = await postJson(`${textOnly.url}/sign`, { method: "mitid.dk", value: "someone" });
    expect(secure.status).toBe(400);
    expect(secure.body.message).toContain("identity provider");

    const noInsecure = Object.values((await create(oneSigner({ enableInsecureSigning: false, insecureSigningMethods: undefined }))).links)[0]!;
    const text = await postJson(`${noInsecure.url}/sign`, { method: "text", value: "Alice" });
    expect(text.status).toBe(400);
    expect(text.body.message).toContain('"text"');
    expect((await getAs<SignPage>(noInsecure.url)).body).toMatchObject({ canSign: false, methods: { insecure: [], secure: [] } });

    const badBody = await postJson(`${textOnly.url}/sign`, { method: "text" });
    expect(badBody.status).toBe(400);
    expect(badBody.body.errors?.map((e) => e.path)).toEqual(["value"]);
    const tooLong = await postJson(`${textOnly.url}/sign`, { method: "text", value: "x".repeat(201) });
    expect(tooLong.status).toBe(400);

    for (const s of [textOnly, noInsecure]) {
      expect(await signerRow(s.signerId)).toMatchObject({ status: 1, signedAt: null, signatureMethod: null });
      expect(await signerEvents(s.signerId, "sign.signer.signed")).toHaveLength(0);
    }
  });

  it("refuses a signer whose role has no document to sign", async () => {
    const cf = await create(oneSigner());
    const link = Object.values(cf.links)[0]!;
    // The link was issued while the role matched; the role rules are checked again at signing.
    await testDb().signer.update({ where: { id: link.signerId }, data: { role: "Outsider" } });
    expect((await getAs<SignPage>(link.url)).body).toMatchObject({ canSign: false });
    const res = await postJson(`${link.url}/sign`, { method: "text", value: "Alice" });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("no_document_to_sign");
    expect(res.body.message).toContain('"Outsider"');
    expect((await signerRow(link.signerId)).status).toBe(1);
    expect(await signerEvents(link.signerId, "sign.signer.signed")).toHaveLength(0);
  });

  it("answers 409 not_active for a signer whose round has not been reached, and 409 for an unsent case file", async () => {
    const cf = await create(validCaseFile());
    const bob = cf.links["Bob Berg"]!;
    const page = await getAs(bob.url);
    expect(page.status).toBe(409);
    expect(page.body.error).toBe("not_active");
    const html = await fetch(bob.url);
    expect(html.status).toBe(409);
    expect(await html.text()).toContain("not your turn");
    const sign = await postJson(`${bob.url}/sign`, { method: "text", value: "Bob" });
    expect(sign.status).toBe(409);
    expect(await signerRow(bob.signerId)).toMatchObject({ status: 0, signedAt: null, openedAt: null });
    expect(await signerEvents(bob.signerId, "sign.signer.opened")).toHaveLength(0);

    const later = await create(oneSigner({}, { sendAt: Math.floor(Date.now() / 1000) + 3600 }));
    expect(later.status).toBe(0);
    const unsent = await getAs(Object.values(later.links)[0]!.url);
    expect(unsent.status).toBe(409);
    expect(unsent.body.error).toBe("not_yet_sent");
  });

  it("answers 410 expired once the signer's expireAt has passed, without any state change", async () => {
    const cf = await create(oneSigner());
    const link = Object.values(cf.links)[0]!;
    await testDb().signer.update({ where: { id: link.signerId }, data: { expireAt: new Date(Date.now() - 1000) } });
    for (const res of [
      await getAs(link.url),
      await postJson(`${link.url}/sign`, { method: "text", value: "Alice" }),
      await postJson(`${link.url}/reject`, {}),
    ]) {
      expect(res.status).toBe(410);
      expect(res.body.error).toBe("expired");
    }
    expect(await signerRow(link.signerId)).toMatchObject({ status: 1, signedAt: null, rejectedAt: null });
    expect(await signerEvents(link.signerId)).toEqual([expect.objectContaining({ eventType: "sign.signer.requestActivated" })]);

    // The case file's own expiry closes every link as well.
    const other = await create(oneSigner());
    await testDb().caseFile.update({ where: { id: other.caseFileId }, data: { expireAt: new Date(Date.now() - 1000) } });
    expect((await getAs(Object.values(other.links)[0]!.url)).status).toBe(410);
  });

  it("rejects: signer 2 and case file 2 with both events, redirect to failUrl; every link of the case file is closed afterwards", async () => {
    const base = validCaseFile().caseFile.signers;
    const cf = await create(
      validCaseFile({
        signers: [
          { ...base[0], failUrl: "https://example.com/rejected" },
          { ...base[1], signOrder: 0 },
        ],
      }),
    );
    const alice = cf.links["Alice Andersen"]!;
    const res = await postJson(`${alice.url}/reject`, { reason: "The salary is wrong" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "rejected", signerId: alice.signerId, redirectUrl: "https://example.com/rejected" });

    expect(await signerRow(alice.signerId)).toMatchObject({ status: 2, rejectReason: "The salary is wrong", rejectedAt: expect.any(Date) });
    const caseFile = await testDb().caseFile.findUniqueOrThrow({ where: { id: cf.caseFileId } });
    expect(caseFile).toMatchObject({ status: 2, rejectedAt: expect.any(Date) });
    const rejected = await signerEvents(alice.signerId, "sign.signer.rejected");
    expect(rejected.map((e) => e.payload)).toEqual([{ id: alice.signerId, caseFile: { id: cf.caseFileId, status: 2 } }]);
    const cfRejected = await caseFileEvents(cf.caseFileId, "sign.casefile.rejected");
    expect(cfRejected.map((e) => e.payload)).toEqual([{ id: cf.caseFileId, status: 2 }]);

    const again = await getAs(alice.url);
    expect(again.status).toBe(410);
    expect(again.body.error).toBe("rejected");
    const bob = await postJson(`${cf.links["Bob Berg"]!.url}/sign`, { method: "text", value: "Bob" });
    expect(bob.status).toBe(410);
    expect(bob.body.error).toBe("casefile_rejected");
    expect((await signerRow(cf.links["Bob Berg"]!.signerId)).status).toBe(1);
  });

  it("signs with an uploaded PNG: stored by content, both signed events; a fake image is refused", async () => {
    const cf = await create(oneSigner({ insecureSigningMethods: ["image"] }));
    const link = Object.values(cf.links)[0]!;
    const fake = await postJson(`${link.url}/sign`, { method: "image", value: `data:image/png;base64,${Buffer.from("GIF89a not a png").toString("base64")}` });
    expect(fake.status).toBe(400);
    expect(fake.body.errors?.[0]?.path).toBe("value");
    const tooBig = await postJson(`${link.url}/sign`, { method: "image", value: Buffer.alloc(70 * 1024, 1).toString("base64") });
    expect(tooBig.status).toBe(400);
    expect((await signerRow(link.signerId)).status).toBe(1);

    const png = makePng(120, 40, 7);
    const res = await postJson(`${link.url}/sign`, { method: "image", value: `data:image/png;base64,${png.toString("base64")}` });
    expect(res.status).toBe(200);
    const sha = createHash("sha256").update(png).digest("hex");
    expect(await signerRow(link.signerId)).toMatchObject({ status: 4, signatureMethod: "image", signatureValue: sha });
    // Content-addressed storage layout: <root>/ab/cd/<sha256>.
    const stored = await readFile(path.join(process.env.STORAGE_DIR!, sha.slice(0, 2), sha.slice(2, 4), sha));
    expect(stored.equals(png)).toBe(true);
    const types = (await signerEvents(link.signerId)).map((e) => e.eventType).filter((t) => t.startsWith("sign.signer.signed"));
    expect(types.sort()).toEqual(["sign.signer.signed", "sign.signer.signedWithImageUploadAndNAP"]);
  });

  it("signs with a drawn PNG (plain base64 accepted) and emits only the signed event", async () => {
    const cf = await create(oneSigner({ insecureSigningMethods: ["draw"] }));
    const link = Object.values(cf.links)[0]!;
    const res = await postJson(`${link.url}/sign`, { method: "draw", value: makePng(80, 30, 3).toString("base64") });
    expect(res.status).toBe(200);
    expect((await signerEvents(link.signerId)).map((e) => e.eventType).filter((t) => t.startsWith("sign.signer.signed"))).toEqual(["sign.signer.signed"]);
  });

  it("lets exactly one of many parallel signatures through", async () => {
    const cf = await create(oneSigner());
    const link = Object.values(cf.links)[0]!;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => postJson(`${link.url}/sign`, { method: "text", value: `Alice ${i}` })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await signerEvents(link.signerId, "sign.signer.signed")).toHaveLength(1);
    const winner = answers.findIndex((a) => a.status === 200);
    expect((await signerRow(link.signerId)).signatureValue).toBe(`Alice ${winner}`);
  });
});

describe("the open-tracking pixel", () => {
  it("answers a 1x1 GIF for valid, forged and unknown ids, and records requestOpened at most once a minute", async () => {
    const cf = await create(oneSigner());
    const link = Object.values(cf.links)[0]!;
    const pixel = async (id: string) => {
      const res = await fetch(`${gateway.url}/t/${id}.gif`);
      return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const first = await pixel(trackingId(link.signerId, TEST_ENCRYPTION_KEY));
    expect(first.status).toBe(200);
    expect(first.type).toBe("image/gif");
    expect(first.bytes.subarray(0, 6).toString("latin1")).toBe("GIF89a");
    const events = await signerEvents(link.signerId, "sign.signer.requestOpened");
    expect(events.map((e) => e.payload)).toEqual([{ id: link.signerId, caseFile: { id: cf.caseFileId, status: 1 } }]);
    // The first opening is kept: Penneo's signer status 1 ("request opened") on the case file read.
    const firstOpen = (await testDb().signer.findUniqueOrThrow({ where: { id: link.signerId } })).requestOpenedAt;
    expect(firstOpen).toBeInstanceOf(Date);
    const read = await fetch(`${gateway.url}/api/v3/casefiles/${cf.caseFileId}/signers/${link.signerId}`, { headers: { "X-Auth-Token": token } });
    expect(await read.json()).toMatchObject({ status: 1, signingRequest: { status: 1 } });

    await Promise.all([1, 2, 3].map(() => pixel(trackingId(link.signerId, TEST_ENCRYPTION_KEY))));
    expect(await signerEvents(link.signerId, "sign.signer.requestOpened")).toHaveLength(1);
    expect((await testDb().signer.findUniqueOrThrow({ where: { id: link.signerId } })).requestOpenedAt).toEqual(firstOpen);

    const forged = await pixel(`${link.signerId}.${"A".repeat(22)}`);
    const unknown = await pixel(trackingId(2_000_000_000, TEST_ENCRYPTION_KEY));
    const garbage = await pixel("nonsense");
    for (const other of [forged, unknown, garbage]) {
      expect(other.status).toBe(200);
      expect(other.bytes.equals(first.bytes)).toBe(true);
    }
    expect(await signerEvents(link.signerId, "sign.signer.requestOpened")).toHaveLength(1);
  });
});
