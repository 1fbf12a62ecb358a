import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCustomer } from "@esign/accounts";
import { createDevelopmentSealP12, inspectSeal, loadP12SealKey, sealDocument } from "@esign/seal";
import { TEST_ENCRYPTION_KEY, getToken } from "../support/api";
import { runCli } from "../support/cli";
import { eventually } from "../support/eventually";
import { makePdf } from "../support/pdf";
import { pdfText, pdfsig } from "../support/poppler";
import { startService } from "../support/services";
import { createCase, postJson } from "../support/signing-api";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { startSystem, type System } from "../support/system";
import { startTestTsa, type TestTsa } from "../support/test-tsa";
import { createWorld, type World } from "../support/webhook-world";

/*
 * Issue 13 end to end: four running services sign a case file through real signing links, the
 * worker seals it with timestamps from the test TSA, the notifier mails it. poppler's pdfsig is the
 * oracle for the signature, pdftotext for what the audit trail shows.
 */
let system: System;
let world: World;
let smtp: SmtpSink;
let tsa: TestTsa;

beforeAll(async () => {
  smtp = await startSmtpSink();
  tsa = await startTestTsa();
  world = await createWorld("sealing");
  system = await startSystem(["casefile-worker", "notifier", "webhook-dispatcher"], world.env({ SMTP_URL: smtp.url, TSA_URL: tsa.url }), {
    JOB_POLL_INTERVAL_MS: "0",
  });
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await smtp?.stop();
  await tsa?.close();
  await world?.close();
});

const SIGNERS = [
  { name: "Łukasz Żółkiewski-Brzęczyszczykiewicz", email: "lukasz@example.com", role: "Najemca", ua: "Mozilla/5.0 (Polish desk) Gecko/20100101 Firefox/128.0" },
  {
    name: "Søren Ærø Kierkegård",
    email: "soren@example.com",
    role: "Udlejer",
    onBehalfOf: "Ærø Ejendomme ApS",
    ua: "Mozilla/5.0 (Danish laptop) Safari/605.1.15",
  },
  { name: "Ελένη Παπαδοπούλου", email: "eleni@example.com", role: "Μάρτυρας", ua: "Mozilla/5.0 (Greek phone) Chrome/126.0" },
  { name: "王小明", email: "wang@example.com", role: "见证人", ua: "Mozilla/5.0 (Chinese tablet) Edg/125.0" },
] as const;

async function postPdf(body: Uint8Array, contentType = "application/pdf"): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${system.gateway.url}/verify`, { method: "POST", headers: { "content-type": contentType }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("sealed documents", () => {
  let token: string;
  let caseFileId: number;
  let documentId: number;
  let original: Buffer;
  let sealed: Buffer;

  it("seals the signed document: original pages, a Danish audit trail with every script and the evidence, a timestamped PAdES seal over the whole file", async () => {
    const creds = await createCustomer(world.db, { name: "Sealing A/S" }, TEST_ENCRYPTION_KEY);
    token = await getToken(system.gateway.url, creds);
    original = await makePdf(`Lejekontrakt ${Math.random().toString(36).slice(2)}`, 2);
    const journey = await createCase(
      system.gateway.url,
      token,
      {
        caseFile: {
          title: "Lejekontrakt – Åbenrå Strandvej 12",
          language: "da",
          signers: SIGNERS.map(({ ua: _ua, ...s }) => ({ ...s, enableInsecureSigning: true, insecureSigningMethods: ["text"] })),
          documents: [{ title: "Lejekontrakt", name: "lease.pdf" }],
        },
      },
      [{ name: "lease.pdf", content: original }],
    );
    caseFileId = journey.caseFileId;
    for (const s of SIGNERS) {
      const link = journey.links[s.name]!;
      expect((await fetch(link.url, { headers: { accept: "application/json", "user-agent": s.ua } })).status).toBe(200);
      expect((await postJson(`${link.url}/sign`, { method: "text", value: s.name }, { "user-agent": s.ua })).status).toBe(200);
    }
    const done = await eventually(async () => {
      const cf = await world.db.caseFile.findUniqueOrThrow({ where: { id: caseFileId }, include: { documents: true } });
      return cf.status === 5 ? cf : undefined;
    });
    const doc = done.documents[0]!;
    documentId = doc.id;
    expect(doc.sealLevel).toBe("B-T");
    const res = await fetch(`${system.gateway.url}/send/api/v1/casefiles/${caseFileId}/documents/${doc.id}/file`, { headers: { "X-Auth-Token": token } });
    sealed = Buffer.from(await res.arrayBuffer());

    // The oracle: one ETSI.CAdES.detached SHA-256 signature, valid, over the whole file.
    const sig = await pdfsig(sealed);
    expect(sig.signatures).toHaveLength(1);
    expect(sig.signatures[0]).toEqual({
      subFilter: "ETSI.CAdES.detached",
      hashAlgorithm: "SHA-256",
      totalDocumentSigned: true,
      validation: "Signature is Valid.",
      signerCommonName: expect.stringContaining("seal"),
    });
    // Original bytes first, then the audit trail in Danish with every name in its own script.
    expect(sealed.subarray(0, original.length).equals(original)).toBe(true);
    const text = await pdfText(sealed, { first: 3 });
    expect(text).toContain("Gennemførelsescertifikat");
    expect(text).toContain("Lejekontrakt – Åbenrå Strandvej 12");
    expect(text).toContain(String(caseFileId));
    expect(text).toContain(doc.fileSha256);
    for (const s of SIGNERS) {
      expect(text).toContain(s.name);
      expect(text).toContain(s.role);
      expect(text.replace(/\s+/g, " ")).toContain(s.ua);
    }
    expect(text).toContain("Ærø Ejendomme ApS");
    expect(text).toContain("127.0.0.1");
    expect(text).toContain("Indtastet navn");
    expect(text).toMatch(/Anmodning sendt\s/);
    const seal = await world.db.sealCertificate.findMany();
    expect(seal.length).toBeGreaterThan(0);
    expect(seal.some((c) => text.includes(c.sha256))).toBe(true);
    // The time came from the (test) timestamp authority.
    const { report } = await inspectSeal(sealed);
    expect(report.timestamp?.valid).toBe(true);
    expect(report.timestamp?.authority?.subject).toContain("TEST timestamp authority");
    expect(tsa.requests).toBeGreaterThan(0);
    // Evidence is stored, and never in the logs.
    const signer = await world.db.signer.findFirstOrThrow({ where: { caseFileId, name: SIGNERS[0].name } });
    expect(signer.actionUserAgent).toBe(SIGNERS[0].ua);
    expect(signer.actionIp).toBe("127.0.0.1");
    for (const svc of system.services) expect(svc.logs).not.toContain(SIGNERS[0].ua);
  }, 90_000);

  it("mails the sealed file as the completion attachment", async () => {
    const mail = await smtp.waitFor((m) => m.to.includes("lukasz@example.com") && m.attachments.length > 0, 20_000);
    const attachment = mail.attachments.find((a) => a.filename === "lease.pdf");
    expect(attachment?.content.equals(sealed)).toBe(true);
    expect((await pdfsig(attachment!.content)).signatures[0]?.validation).toBe("Signature is Valid.");
  });

  it("breaks the seal when one byte changes or bytes are added after it", async () => {
    const flipped = Buffer.from(sealed);
    // A byte of the original's binary comment line (line 2): inside the signed range, the PDF stays readable.
    const at = sealed.indexOf("\n") + 2;
    expect(at).toBeGreaterThan(1);
    flipped[at] = flipped[at]! ^ 0x01;
    const sig = await pdfsig(flipped);
    expect(sig.signatures[0]?.validation).not.toBe("Signature is Valid.");

    const appended = Buffer.concat([sealed, Buffer.from("\n% added after sealing\n")]);
    expect((await pdfsig(appended)).signatures[0]?.totalDocumentSigned).toBe(false);

    expect((await postPdf(sealed)).body).toEqual({ verdict: "sealed_unchanged", sealedByThisPlatform: true, unchanged: true });
    expect((await postPdf(flipped)).body).toEqual({ verdict: "sealed_changed", sealedByThisPlatform: true, unchanged: false });
    expect((await postPdf(appended)).body).toEqual({ verdict: "sealed_changed", sealedByThisPlatform: true, unchanged: false });
  });

  it("POST /verify answers only whether this platform sealed the file: not for an unsealed PDF nor for another CA's seal", async () => {
    expect((await postPdf(original)).body).toEqual({ verdict: "not_sealed_by_this_platform", sealedByThisPlatform: false, unchanged: null });
    // A valid PAdES seal by another key: sealed, but not by this platform.
    const dir = mkdtempSync(path.join(os.tmpdir(), "esign-other-seal-"));
    try {
      writeFileSync(path.join(dir, "other.p12"), await createDevelopmentSealP12("other", { organization: "Someone else" }));
      const key = await loadP12SealKey(path.join(dir, "other.p12"), "other");
      const foreign = await sealDocument(
        original,
        {
          language: null,
          caseFile: { id: 1, title: "Forged" },
          documentId: 1,
          documents: [{ id: 1, title: "Forged", pageCount: 2, originalSha256: "0".repeat(64), signable: true }],
          signers: [],
          seal: { certificateSubject: "CN=Someone else", certificateSha256: "0".repeat(64) },
          generatedAt: new Date(),
        },
        { key, timestampAuthority: null },
      );
      expect((await pdfsig(foreign.bytes)).signatures[0]?.validation).toBe("Signature is Valid.");
      expect((await postPdf(foreign.bytes)).body).toEqual({ verdict: "not_sealed_by_this_platform", sealedByThisPlatform: false, unchanged: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Multipart works too; the answer carries nothing but the verdict.
    const form = new FormData();
    form.append("file", new Blob([sealed], { type: "application/pdf" }), "lease.pdf");
    const multi = await fetch(`${system.gateway.url}/verify`, { method: "POST", body: form });
    expect(multi.status).toBe(200);
    expect(Object.keys((await multi.json()) as object).sort()).toEqual(["sealedByThisPlatform", "unchanged", "verdict"]);
  });

  it("POST /verify refuses bad input with a 4xx naming the field", async () => {
    const empty = await postPdf(new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([expect.objectContaining({ path: "body", code: "required" })]);
    const text = await postPdf(Buffer.from("hello, not a pdf"));
    expect(text.status).toBe(400);
    expect(text.body.errors).toEqual([expect.objectContaining({ path: "body", code: "not_a_pdf" })]);
    const wrongType = await postPdf(Buffer.from("%PDF-1.7"), "text/plain");
    expect(wrongType.status).toBe(415);
    const form = new FormData();
    form.append("document", new Blob([sealed], { type: "application/pdf" }), "x.pdf");
    const wrongPart = await fetch(`${system.gateway.url}/verify`, { method: "POST", body: form });
    expect(wrongPart.status).toBe(400);
  });

  it("GET .../verification reports the seal to the owner, and 404 to another customer", async () => {
    const url = `${system.gateway.url}/send/api/v1/casefiles/${caseFileId}/documents/${documentId}/verification`;
    const res = await fetch(url, { headers: { "X-Auth-Token": token } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    const doc = await world.db.document.findUniqueOrThrow({ where: { id: documentId } });
    expect(body).toMatchObject({
      caseFileId,
      documentId,
      originalSha256: doc.fileSha256,
      sealedSha256: doc.signedSha256,
      sealed: true,
      sealValid: true,
      coversWholeFile: true,
      signingCertificateV2: true,
      level: "B-T",
      timestamp: { valid: true },
      certificate: { sha256Fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const other = await createCustomer(world.db, { name: "Other customer" }, TEST_ENCRYPTION_KEY);
    const otherToken = await getToken(system.gateway.url, other);
    expect((await fetch(url, { headers: { "X-Auth-Token": otherToken } })).status).toBe(404);
    expect((await fetch(url)).status).toBe(401);
  });

  it("pnpm cli verify FILE prints the verdict and the seal report", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "esign-cli-verify-"));
    try {
      const file = path.join(dir, "lease.pdf");
      writeFileSync(file, sealed);
      const out = await runCli(["verify", file], { env: { DATABASE_URL: world.databaseUrl } });
      expect(out.code).toBe(0);
      const json = JSON.parse(out.stdout) as Record<string, unknown>;
      expect(json).toMatchObject({ verdict: "sealed_unchanged", sealedByThisPlatform: true, unchanged: true, seal: { level: "B-T", coversWholeFile: true } });
      const missing = await runCli(["verify", path.join(dir, "nope.pdf")], { env: { DATABASE_URL: world.databaseUrl } });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("cannot read");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("the casefile-worker refuses to start in production without a seal, or with a P12 it cannot open", async () => {
    const production = {
      NODE_ENV: "production",
      JWT_SECRET: "sealed-documents-test-jwt-secret-0123456789",
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      METRICS_TOKEN: "sealed-documents-metrics-token",
      ...world.env(),
    };
    await expect(startService("casefile-worker", production)).rejects.toThrow(/SEAL_P12_PATH: production needs the platform's seal/);
    const dir = mkdtempSync(path.join(os.tmpdir(), "esign-bad-seal-"));
    try {
      writeFileSync(path.join(dir, "seal.p12"), await createDevelopmentSealP12("right password"));
      await expect(startService("casefile-worker", { ...production, SEAL_P12_PATH: path.join(dir, "seal.p12"), SEAL_P12_PASSWORD: "wrong" })).rejects.toThrow(
        /cannot open the PKCS#12 file/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
