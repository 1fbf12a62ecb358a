import type { Document, Signer } from "@esign/db";
import { auditTrailFor } from "../src/domain/audit-trail-input";

const at = new Date("2026-11-24T10:00:00Z");

function signer(over: Partial<Signer>): Signer {
  return {
    id: 1,
    caseFileId: 1,
    name: "Signer",
    email: null,
    channel: "email",
    cprEnc: null,
    cvr: null,
    socialSecurityNumberEnc: null,
    vatin: null,
    role: "Signer",
    onBehalfOf: null,
    signOrder: 0,
    ssnType: null,
    accessControl: false,
    successUrl: null,
    failUrl: null,
    language: null,
    enableInsecureSigning: true,
    insecureSigningMethods: [],
    secureSigningMethods: [],
    storeAsContact: false,
    notification: {},
    activeAt: null,
    expireAt: null,
    status: 4,
    activatedAt: at,
    requestOpenedAt: null,
    openedAt: at,
    signedAt: at,
    signatureMethod: "text",
    signatureValue: "Signer",
    rejectedAt: null,
    rejectReason: null,
    actionIp: "192.0.2.1",
    actionUserAgent: "UA",
    identityProvider: null,
    identityMethod: null,
    identitySubject: null,
    identityNationalIdEnc: null,
    identityVerifiedAt: null,
    deletedAt: null,
    expiredAt: null,
    remindersSent: 0,
    createdAt: at,
    updatedAt: at,
    ...over,
  };
}

const doc: Document = {
  id: 1,
  caseFileId: 1,
  title: "Contract",
  name: "contract.pdf",
  signable: true,
  roles: [],
  documentOrder: null,
  metaData: null,
  fileSha256: "a".repeat(64),
  size: 10,
  pageCount: 1,
  signedSha256: null,
  sealedAt: null,
  sealLevel: null,
};

describe("the audit trail's signers", () => {
  it("carry the identity a provider vouched for, the national id only as the fact that it matched, never a typed name as a subject", () => {
    const signers = [
      signer({ id: 1, name: "Typed", signatureMethod: "text", signatureValue: "Typed Name" }),
      signer({
        id: 2,
        name: "Identified",
        signatureMethod: "draw",
        signatureValue: "f".repeat(64),
        identityProvider: "OpenID Connect (https://broker)",
        identityMethod: "mitid.dk",
        identitySubject: "sub-2",
        identityVerifiedAt: at,
      }),
      signer({
        id: 3,
        name: "MitID",
        signatureMethod: "mitid.dk",
        signatureValue: "sub-3",
        identityProvider: "OpenID Connect (https://broker)",
        identityMethod: "mitid.dk",
        identitySubject: "sub-3",
        identityNationalIdEnc: "ENCRYPTED-NATIONAL-ID",
        identityVerifiedAt: at,
      }),
      signer({ id: 4, name: "Old secure", signatureMethod: "bankid_se", signatureValue: "sub-4", identityProvider: "Identity provider SIMULATOR" }),
    ];
    const trail = auditTrailFor({ id: 1, customerId: 1, title: "Deal", language: "da", documents: [doc], signers }, doc, new Map([[1, 2]]), new Map(), at);
    expect(trail.language).toBe("da");
    expect(trail.signers.map((s) => [s.name, s.secure, s.identityProvider, s.identityMethod, s.identitySubject, s.nationalIdMatched])).toEqual([
      ["Typed", false, null, null, null, false],
      ["Identified", false, "OpenID Connect (https://broker)", "mitid.dk", "sub-2", false],
      ["MitID", true, "OpenID Connect (https://broker)", "mitid.dk", "sub-3", true],
      // Signed before identitySubject existed: the subject was the signature value.
      ["Old secure", true, "Identity provider SIMULATOR", null, "sub-4", false],
    ]);
    expect(JSON.stringify(trail)).not.toContain("ENCRYPTED-NATIONAL-ID");
  });
});
