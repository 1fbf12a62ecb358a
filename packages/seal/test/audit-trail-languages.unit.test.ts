import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { LANGUAGES } from "@esign/i18n";
import { makePdf } from "../../../test/support/pdf";
import { pdfText } from "../../../test/support/poppler";
import { AUDIT_TRAIL_CATALOG, createDevelopmentSealP12, loadP12SealKey, sealDocument, type AuditTrailContent, type SealKey } from "../src";

let key: SealKey;
let original: Uint8Array;
const dir = mkdtempSync(path.join(os.tmpdir(), "esign-audit-languages-"));

beforeAll(async () => {
  writeFileSync(path.join(dir, "seal.p12"), await createDevelopmentSealP12("pw"));
  key = await loadP12SealKey(path.join(dir, "seal.p12"), "pw");
  original = await makePdf("Lejekontrakt");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = new Date("2026-11-24T09:30:00Z");
const signer = (over: Partial<AuditTrailContent["signers"][number]>): AuditTrailContent["signers"][number] => ({
  name: "Åsa Ørsted-Müller",
  role: "Tenant",
  onBehalfOf: null,
  outcome: "signed",
  method: "draw",
  secure: false,
  identityProvider: null,
  identitySubject: null,
  identityMethod: null,
  identityVerifiedAt: null,
  nationalIdMatched: false,
  sentAt: at,
  openedAt: at,
  signedAt: at,
  rejectedAt: null,
  ipAddress: "192.0.2.7",
  userAgent: "Mozilla/5.0",
  ...over,
});

const content = (language: AuditTrailContent["language"]): AuditTrailContent => ({
  language,
  caseFile: { id: 7, title: "Lease" },
  documentId: 1,
  documents: [{ id: 1, title: "Lease", pageCount: 1, originalSha256: "a".repeat(64), signable: true }],
  signers: [
    signer({
      method: "mitid.dk",
      secure: true,
      identityProvider: "OpenID Connect (https://broker.example)",
      identitySubject: "sub-123",
      identityMethod: "mitid.dk",
      identityVerifiedAt: at,
      nationalIdMatched: true,
    }),
    signer({
      name: "Bo",
      identityProvider: "OpenID Connect (https://broker.example)",
      identitySubject: "sub-456",
      identityMethod: "bankid_se",
      identityVerifiedAt: at,
    }),
  ],
  seal: { certificateSubject: "CN=E-Sign development seal", certificateSha256: "b".repeat(64) },
  generatedAt: at,
});

/** pdftotext breaks long lines and joins words with single spaces: compare word sequences. */
const words = (s: string) => s.replace(/\s+/g, " ").trim();

describe("the audit trail in every language of the spec", () => {
  it.each([...LANGUAGES])("%s: every heading and label in its own words, diacritics intact, the identity of both signers", async (language) => {
    const m = AUDIT_TRAIL_CATALOG[language];
    const sealed = await sealDocument(original, content(language), { key, timestampAuthority: null });
    const text = words(await pdfText(sealed.bytes, { first: 2 }));
    for (const label of [
      m.title,
      m.caseFileSection,
      m.signersSection,
      m.identityProvider,
      m.identitySubject,
      m.identityVerifiedAt,
      m.nationalId,
      m.sealSection,
      m.timesInUtc,
    ]) {
      expect([language, text.includes(words(label))]).toEqual([language, true]);
    }
    expect(text).toContain(words(m.methods.secure("mitid.dk")));
    expect(text).toContain(words(m.nationalIdMatched));
    // The insecure signer validated their identity first: the method gets a line of its own.
    expect(text).toContain(words(m.identityMethod));
    expect(text).toContain("bankid_se");
    expect(text).toContain("Åsa Ørsted-Müller");
    // Labels and values are two columns: the footer ("page 1 of N") is found up to its number.
    expect(text).toContain(words(m.page(1, 999)).split("999")[0]!.trim());
    expect(text).not.toContain("?");
  });
});
