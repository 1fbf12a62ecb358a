import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { TEST_ENCRYPTION_KEY, testDb, closeTestDb } from "../support/api";
import { createAndAwaitCaseFile, dotnetWsseHeaders, sendRaw, wssePackageHeaders } from "../support/penneo-clients";
import { makePdf } from "../support/pdf";
import { startReceiver, type Receiver } from "../support/receiver";
import { startSystem, type System } from "../support/system";

/*
 * The calls Penneo's .NET SDK (Penneo/sdk-net) makes, in its wire format: WSSE is its only scheme
 * (WSSEAuthenticator: X-WSSE + `Authorization: WSSE profile="UsernameToken"` on every request),
 * resources relative to `{endpoint}/api/v3`, lists read as a JSON array or `{items}`, entities
 * deserialized by name (Newtonsoft: unix dates, `signingRequest` onto SigningRequest), a document's
 * PDF from `documents/{id}/pdf` as a one-element array of base64, and webhook subscriptions
 * written with the C# property names (`Endpoint`, `EventTypes`). The last block replays the
 * JavaScript samples of Penneo/api-utils (the `wsse` npm package with nonceBase64, X-WSSE only).
 */

let system: System;
let receiver: Receiver;
let creds: CustomerCredentials;
let pdf: Buffer;
let caseFileId: number;

const USER_AGENT = "Penneo%2Fsdk-net%40" + "7.0.0";

function call(method: string, path: string, body?: string, wsse: () => Record<string, string> = () => dotnetWsseHeaders(creds.apiKey, creds.apiSecret)) {
  const headers: Record<string, string> = { ...wsse(), "User-Agent": USER_AGENT, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) };
  return sendRaw(system.gateway.url, method, path, headers, body);
}

beforeAll(async () => {
  receiver = await startReceiver();
  system = await startSystem(["casefile-worker", "webhook-dispatcher"]);
  creds = await createCustomer(testDb(), { name: "sdk-net customer", adminEmail: "admin@example.com" }, TEST_ENCRYPTION_KEY);
  pdf = await makePdf("sdk-net contract", 2);
  // The case file is made with the create endpoint under the same WSSE credentials.
  caseFileId = await createAndAwaitCaseFile(
    system.gateway.url,
    dotnetWsseHeaders(creds.apiKey, creds.apiSecret),
    {
      caseFile: {
        title: "sdk-net contract",
        language: "da",
        signers: [{ name: "Jens Hansen", email: "jens@example.com", role: "Director" }],
        documents: [{ title: "Aftale", name: "aftale.pdf" }],
      },
    },
    { name: "aftale.pdf", content: pdf },
  );
  expect(caseFileId).toEqual(expect.any(Number));
}, 60_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  await closeTestDb();
});

describe("sdk-net with WSSE on /api/v3", () => {
  it("Query.GetUser() reads user", async () => {
    const res = await call("GET", "/api/v3/user");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: creds.userId, email: "admin@example.com", fullName: expect.any(String), customerId: creds.customerId });
  });

  it("Query.FindAsync<CaseFile>(id) reads casefiles/{id}: title, language, status, unix dates, signers with their signing request", async () => {
    const res = await call("GET", `/api/v3/casefiles/${caseFileId}`);
    expect(res.status).toBe(200);
    const cf = res.json as Record<string, unknown>;
    expect(cf).toMatchObject({
      id: caseFileId,
      title: "sdk-net contract",
      language: "da",
      status: 1,
      created: expect.any(Number),
      activated: expect.any(Number),
      signIteration: 0,
    });
    // Unset dates are left out: sdk-net's PenneoDateConverter reads a JSON null as 1970 and PUTs it back as 0.
    expect(cf).not.toHaveProperty("sendAt");
    expect(cf).not.toHaveProperty("expireAt");
    // Every embedded entity names its class, as Penneo's own JSON does (sdk-php builds entities from it).
    expect(cf.sdkClassName).toBe("CaseFile");
    // CaseFile.Signers -> Signer, its `signingRequest` -> SigningRequest with SigningRequestStatus (1 pending).
    expect(cf.signers).toEqual([
      expect.objectContaining({ name: "Jens Hansen", signingRequest: expect.objectContaining({ status: 1, email: "jens@example.com" }) }),
    ]);
  });

  it("GetDocumentsAsync and GetSignersAsync read casefiles/{id}/documents|signers as lists", async () => {
    const docs = await call("GET", `/api/v3/casefiles/${caseFileId}/documents`);
    expect(docs.json).toEqual([
      expect.objectContaining({ title: "Aftale", signType: "signable", documentId: expect.any(String), created: expect.any(Number) }),
    ]);
    const signers = await call("GET", `/api/v3/casefiles/${caseFileId}/signers`);
    expect(signers.json).toEqual([expect.objectContaining({ name: "Jens Hansen", role: "Director" })]);
  });

  it("Signer.GetSigningRequest() reads casefiles/{cf}/signers/{id}/signingrequests", async () => {
    const signer = ((await call("GET", `/api/v3/casefiles/${caseFileId}/signers`)).json as { id: number }[])[0]!;
    const res = await call("GET", `/api/v3/casefiles/${caseFileId}/signers/${signer.id}/signingrequests`);
    expect(res.json).toEqual([expect.objectContaining({ id: signer.id, status: 1 })]);
    expect((await call("GET", `/api/v3/casefiles/${caseFileId}/signers/${signer.id}`)).json).toMatchObject({ id: signer.id, name: "Jens Hansen" });
  });

  it("Document.GetPdfAsync() reads documents/{id}/pdf: a one-element array holding the PDF as base64", async () => {
    const doc = ((await call("GET", `/api/v3/casefiles/${caseFileId}/documents`)).json as { id: number }[])[0]!;
    const res = await call("GET", `/api/v3/documents/${doc.id}/pdf`);
    expect(res.status).toBe(200);
    const [b64] = res.json as string[];
    expect(Buffer.from(b64!, "base64").equals(pdf)).toBe(true);
  });

  it("refuses a WSSE header with a Created 10 minutes off, a wrong digest, an unknown key, and a header of the wrong shape", async () => {
    const old = `${new Date(Date.now() - 600_000).toISOString().slice(0, 19)}Z`;
    const cases: Record<string, string>[] = [
      dotnetWsseHeaders(creds.apiKey, creds.apiSecret, old),
      dotnetWsseHeaders(creds.apiKey, "not-the-secret"),
      dotnetWsseHeaders("ak_unknown", creds.apiSecret),
      { "X-WSSE": 'UsernameToken Username="x"' },
      { "X-WSSE": "garbage" },
      { "X-WSSE": dotnetWsseHeaders(creds.apiKey, creds.apiSecret)["X-WSSE"]!.replace(/Nonce="[^"]*"/, 'Nonce="c2hvcnQ="') },
    ];
    for (const headers of cases) {
      const res = await fetch(`${system.gateway.url}/api/v3/casefiles/${caseFileId}`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "unauthorized", message: expect.stringMatching(/^Invalid WSSE credentials: /), statusCode: 401 });
    }
  });
});

describe("sdk-net WebhookSubscription", () => {
  let id: string;

  it("PersistAsync POSTs {Endpoint, EventTypes} (C# names) and PopulateObject reads id and secret from the answer", async () => {
    const res = await call(
      "POST",
      "/webhook/api/v1/subscriptions",
      JSON.stringify({ Endpoint: receiver.url("/net"), EventTypes: ["sign.casefile.completed", "sign.signer.signed"] }),
    );
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      id: expect.any(String),
      secret: expect.any(String),
      isActive: true,
      customerId: creds.customerId,
      endpoint: receiver.url("/net"),
    });
    id = (res.json as { id: string }).id;
  });

  it("FindAsync<WebhookSubscription>(id) and FindAllAsync (CreateObjects takes {items})", async () => {
    expect((await call("GET", `/webhook/api/v1/subscriptions/${id}`)).json).toMatchObject({
      id,
      eventTypes: ["sign.casefile.completed", "sign.signer.signed"],
    });
    expect(((await call("GET", "/webhook/api/v1/subscriptions")).json as { items: { id: string }[] }).items.map((s) => s.id)).toEqual([id]);
  });

  it("DeleteAsync succeeds on 204", async () => {
    expect((await call("DELETE", `/webhook/api/v1/subscriptions/${id}`)).status).toBe(204);
  });
});

describe("api-utils JavaScript samples (the wsse npm package, X-WSSE only)", () => {
  const js = () => wssePackageHeaders(creds.apiKey, creds.apiSecret);

  it("auth/wsse: GET user", async () => {
    expect((await call("GET", "/api/v1/user", undefined, js)).status).toBe(200);
  });

  it("form-data: casefiles/{id} -> casefiles/{id}/documents -> documents/{id} -> its metaData", async () => {
    const cf = (await call("GET", `/api/v1/casefiles/${caseFileId}`, undefined, js)).json as { id: number; title: string };
    expect(cf.title).toBe("sdk-net contract");
    const documents = (await call("GET", `/api/v1/casefiles/${cf.id}/documents`, undefined, js)).json as { id: number }[];
    const document = (await call("GET", `/api/v1/documents/${documents.map((d) => d.id)[0]}`, undefined, js)).json as {
      metaData: string | null;
      title: string;
    };
    expect(document).toMatchObject({ title: "Aftale", metaData: null });
  });
});
