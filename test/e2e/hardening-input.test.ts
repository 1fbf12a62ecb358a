import { closeTestDb, getToken, newCustomer, postCreate, testDb } from "../support/api";
import { makeEncryptedPdf, makePdf, makeUnreadablePdf } from "../support/pdf";
import { rawPost } from "../support/raw-http";
import { createCase, postJson } from "../support/signing-api";
import { subscriptionClient } from "../support/subscription-api";
import { startSystem, type System } from "../support/system";

/*
 * Bad input at every entry point is a 4xx naming the field, never a 500 (issue 14, defects 1 and 2):
 * text PostgreSQL cannot store (a NUL character, a lone UTF-16 surrogate), and file names outside
 * Latin-1 served back in a Content-Disposition header.
 */

let system: System;
let token: string;
let pdf: Buffer;

// As JSON text: "\u0000" and "\ud800" are valid JSON escapes whose strings PostgreSQL refuses.
const NUL = "\\u0000";
const LONE = "\\ud800";

const caseFileJson = (title: string, signerName = "Alice") =>
  `{"caseFile":{"title":${title.includes("\\") ? `"${title}"` : JSON.stringify(title)},"signers":[{"name":"${signerName}","email":"alice@example.com","enableInsecureSigning":true,"insecureSigningMethods":["text"]}],"documents":[{"title":"Contract","name":"contract.pdf"}]}}`;

beforeAll(async () => {
  system = await startSystem(["casefile-worker"], {}, { JOB_POLL_LIMIT_PER_MINUTE: "0" });
  token = await getToken(system.gateway.url, await newCustomer());
  pdf = await makePdf("Contract");
});

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

describe("text PostgreSQL cannot store is a 400 naming the field", () => {
  it("at create: in the title, a signer's name and a file name; nothing is written", async () => {
    const before = await testDb().creationJob.count();
    const res = await postCreate(system.gateway.url, token, caseFileJson(`Deal${NUL}`, `Al${LONE}ice`), [{ name: "contract.pdf", content: pdf }]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { path: "caseFile.title", code: "nul_character", message: expect.any(String) },
        { path: "caseFile.signers[0].name", code: "invalid_unicode", message: expect.any(String) },
      ]),
    );
    // A raw NUL in a part header is refused by the multipart parser itself (400)...
    const rawNul = await postCreate(system.gateway.url, token, caseFileJson("Deal"), [{ name: "contract\u0000.pdf", content: pdf }]);
    expect(rawNul.status).toBe(400);
    // ...one percent-encoded in RFC 5987's filename* gets through it, and is named by the create route.
    const boundary = "----hardening";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n${caseFileJson("Deal")}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename*=UTF-8''contract%00.pdf\r\nContent-Type: application/pdf\r\n\r\n`),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const encoded = await rawPost(
      `${system.gateway.url}/send/api/v1/casefiles/20251022/create`,
      { "content-type": `multipart/form-data; boundary=${boundary}`, "x-auth-token": token },
      body,
    );
    expect(encoded.status).toBe(400);
    expect((encoded.json as { errors: unknown[] }).errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "files[0]", code: "nul_character" })]),
    );
    expect(await testDb().creationJob.count()).toBe(before);
  });

  it("at the signing actions: a reject reason and a typed signature", async () => {
    const cf = await createCase(system.gateway.url, token, JSON.parse(caseFileJson("Signing text")), [{ name: "contract.pdf", content: pdf }]);
    const link = Object.values(cf.links)[0]!;
    for (const [path, body] of [
      ["/reject", `{"reason":"no${NUL}"}`],
      ["/sign", `{"method":"text","value":"Alice${LONE}"}`],
    ] as const) {
      const res = await fetch(`${link.url}${path}`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body });
      expect(res.status).toBe(400);
      const answer = (await res.json()) as { errors?: { path: string }[] };
      expect(answer.errors?.map((e) => e.path)).toEqual([path === "/reject" ? "reason" : "value"]);
    }
    expect((await testDb().signer.findUniqueOrThrow({ where: { id: link.signerId } })).status).toBe(1);
    expect((await postJson(`${link.url}/sign`, { method: "text", value: "Alice" })).status).toBe(200);
  });

  it("at the subscription API and the token endpoint (there in the OAuth 2.0 shape)", async () => {
    const subs = subscriptionClient(system.gateway.url, token);
    const res = await fetch(`${system.gateway.url}/webhook/api/v1/subscriptions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: `{"eventTypes":["sign.casefile.completed"],"endpoint":"http://127.0.0.1:9/h${NUL}"}`,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { path: string; code: string }[] }).errors).toEqual([
      { path: "endpoint", code: "nul_character", message: expect.any(String) },
    ]);
    expect((await subs.list()).body.items).toEqual([]);

    const tokenRes = await fetch(`${system.gateway.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"grant_type":"client_credentials","client_id":"cl${LONE}","client_secret":"x"}`,
    });
    expect(tokenRes.status).toBe(400);
    expect(await tokenRes.json()).toMatchObject({ error: "invalid_request", errors: [{ path: "client_id", code: "invalid_unicode" }] });
  });
});

describe("every upload is opened before the answer (issue 14, defect 3)", () => {
  const twoDocs = (title: string) => {
    const data = JSON.parse(caseFileJson(title));
    data.caseFile.documents.push({ title: "Appendix", name: "appendix.pdf", signable: false });
    return data;
  };

  it("refuses an encrypted PDF and one no parser reads with a 400 naming each file; nothing is stored", async () => {
    const before = await testDb().creationJob.count();
    const res = await postCreate(system.gateway.url, token, twoDocs("Locked"), [
      { name: "contract.pdf", content: await makeEncryptedPdf("locked") },
      { name: "appendix.pdf", content: makeUnreadablePdf() },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: "files[0]", code: "pdf_encrypted", message: expect.stringContaining('"contract.pdf" is encrypted') },
      { path: "files[1]", code: "pdf_unreadable", message: expect.stringContaining('"appendix.pdf" could not be read') },
    ]);
    expect(await testDb().creationJob.count()).toBe(before);
  });

  it("keeps the page count of an accepted upload on its document (and in the reads)", async () => {
    const cf = await createCase(system.gateway.url, token, twoDocs("Counted"), [
      { name: "contract.pdf", content: await makePdf("three pages", 3) },
      { name: "appendix.pdf", content: await makePdf("one page") },
    ]);
    const docs = await testDb().document.findMany({ where: { caseFileId: cf.caseFileId }, orderBy: { id: "asc" } });
    expect(docs.map((d) => [d.name, d.pageCount])).toEqual([
      ["contract.pdf", 3],
      ["appendix.pdf", 1],
    ]);
    const read = await fetch(`${system.gateway.url}/api/v3/casefiles/${cf.caseFileId}/documents`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await read.json()) as { pageCount: number }[]).map((d) => d.pageCount)).toEqual([3, 1]);
  });
});

describe("file names outside Latin-1 are served with an RFC 6266 Content-Disposition", () => {
  it.each(["umowa-ąę.pdf", "王小明 合同.pdf", 'résumé "final".pdf'])("%s: from the owner's two read paths and the signing page", async (name) => {
    const data = JSON.parse(caseFileJson(`Served ${name}`));
    data.caseFile.documents[0].name = name;
    const cf = await createCase(system.gateway.url, token, data, [{ name, content: pdf }]);
    const doc = await testDb().document.findFirstOrThrow({ where: { caseFileId: cf.caseFileId } });
    expect(doc.name).toBe(name);
    const link = Object.values(cf.links)[0]!;
    const urls: [string, Record<string, string>][] = [
      [`${system.gateway.url}/send/api/v1/casefiles/${cf.caseFileId}/documents/${doc.id}/file`, { "X-Auth-Token": token }],
      [`${system.gateway.url}/api/v3/documents/${doc.id}/content`, { Authorization: `Bearer ${token}` }],
      [`${link.url}/documents/${doc.id}`, {}],
    ];
    for (const [url, headers] of urls) {
      const res = await fetch(url, { headers });
      expect(res.status).toBe(200);
      const cd = res.headers.get("content-disposition")!;
      expect(cd).toMatch(/^inline; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
      expect(decodeURIComponent(cd.split("filename*=UTF-8''")[1]!)).toBe(name);
      expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
    }
  });
});
