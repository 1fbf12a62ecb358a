import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { TEST_ENCRYPTION_KEY, testDb, closeTestDb } from "../support/api";
import { postmanApiKeysBody, sendRaw } from "../support/penneo-clients";
import { makePdf } from "../support/pdf";
import { postJson } from "../support/signing-api";
import { startSystem, type System } from "../support/system";
import { eventually } from "../support/webhook-world";

/*
 * Penneo's own Postman collection "Penneo API" (Penneo/Penneo-api-postman, penneo-api.postman_collection.json),
 * replayed request by request against this service: the same method, path, headers and body, and the
 * checks each request's test script runs on the answer (pm.test ...), plus what its descriptions
 * promise. `baseUrl` and `authUrl` both point at the gateway. The collection itself is not in this
 * repository; the requests are rebuilt here in our own words.
 */

let system: System;
let creds: CustomerCredentials;
let pdf: Buffer;
/** The collection's variables, as its scripts set them. */
const vars: Record<string, string> = {};

async function send(method: string, path: string, headers: Record<string, string>, body?: string | FormData) {
  const res = await sendRaw(system.gateway.url, method, path, headers, body);
  return { ...res, json: (res.json ?? {}) as Record<string, unknown> };
}

/** Request 2's `data` part, exactly as the collection has it. */
const COLLECTION_DATA = JSON.stringify(
  {
    caseFile: {
      title: "Contract Agreement",
      signers: [{ name: "John Doe", email: "john@example.com", role: "signer" }],
      documents: [{ title: "Contract Document", name: "contract.pdf" }],
    },
  },
  null,
  2,
);

function createForm(data: string): FormData {
  const form = new FormData();
  form.append("data", data);
  form.append("files", new Blob([pdf], { type: "application/pdf" }), "contract.pdf");
  return form;
}

/** Request 3, "re-run until completed": every 3 s, as a person (or the collection runner) would. */
async function pollUntilFinal(): Promise<Record<string, unknown>> {
  for (let i = 0; i < 20; i++) {
    const res = await send(
      "POST",
      "/send/api/v1/queue/public/status",
      { "Content-Type": "application/json" },
      JSON.stringify({ uuid: vars.jobUuid, payloadHash: vars.payloadHash }, null, 2),
    );
    // pm.test('Status code is 200') and pm.test('Response contains jobStatus')
    expect(res.status).toBe(200);
    expect(typeof res.json.jobStatus).toBe("string");
    expect(["pending", "processing", "completed", "failed", "aborted_duplicated"]).toContain(res.json.jobStatus);
    if (res.json.jobStatus !== "pending" && res.json.jobStatus !== "processing") return res.json;
    await new Promise((r) => setTimeout(r, 3000));
  }
  throw new Error("job not final after 20 polls");
}

beforeAll(async () => {
  // Default gateway settings (the poll limit included), as a client meets them.
  system = await startSystem(["casefile-worker", "webhook-dispatcher"]);
  creds = await createCustomer(testDb(), { name: "Postman collection customer" }, TEST_ENCRYPTION_KEY);
  pdf = await makePdf("Contract Agreement");
}, 60_000);

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

describe("Penneo API collection, requests 1-6 in order", () => {
  it("1. Get Access Token (api_keys grant, JSON body): 200 with access_token and a numeric expires_in", async () => {
    const res = await send("POST", "/oauth/token", { "Content-Type": "application/json" }, JSON.stringify(postmanApiKeysBody(creds), null, 2));
    expect(res.status).toBe(200);
    expect(typeof res.json.access_token).toBe("string");
    expect(res.json.access_token).not.toBe("");
    expect(typeof res.json.expires_in).toBe("number");
    vars.accessToken = String(res.json.access_token);
  });

  it("2. Send Casefile (multipart, X-Auth-Token): 200 with jobs[0].uuid and jobs[0].payloadHash", async () => {
    const res = await send("POST", "/send/api/v1/casefiles/20251022/create", { "X-Auth-Token": vars.accessToken! }, createForm(COLLECTION_DATA));
    expect(res.status).toBe(200);
    const jobs = res.json.jobs as { uuid: unknown; payloadHash: unknown }[];
    expect(Array.isArray(jobs)).toBe(true);
    expect(jobs.length).toBeGreaterThan(0);
    expect(typeof jobs[0]!.uuid).toBe("string");
    expect(jobs[0]!.uuid).not.toBe("");
    expect(typeof jobs[0]!.payloadHash).toBe("string");
    expect(jobs[0]!.payloadHash).not.toBe("");
    vars.jobUuid = String(jobs[0]!.uuid);
    vars.payloadHash = String(jobs[0]!.payloadHash);
  });

  it("3. Poll Job Status (no token): 200, a known jobStatus; once completed, result.data.caseFile.id", async () => {
    const job = await pollUntilFinal();
    // The collection fails the run on 'failed' and on 'aborted_duplicated'.
    expect(job.jobStatus).toBe("completed");
    const result = job.result as { data?: { caseFile?: { id?: unknown } } };
    expect(result).toHaveProperty("data.caseFile.id");
    vars.casefileId = String(result.data!.caseFile!.id);
  });

  it("4. Check Casefile Status (GET /api/v1/casefiles/{id}, Bearer): 200 with id, status and a documents array", async () => {
    const res = await send("GET", `/api/v1/casefiles/${vars.casefileId}`, { Authorization: `Bearer ${vars.accessToken}` });
    expect(res.status).toBe(200);
    expect(res.json).toHaveProperty("id");
    expect(res.json).toHaveProperty("status");
    expect(Array.isArray(res.json.documents)).toBe(true);
    const ids = (res.json.documents as { id: number }[]).map((d) => d.id);
    expect(ids).toHaveLength(1);
    vars.documentId = String(ids[0]);
    // The description's codes: case file 1 pending; signer 0 "request sent".
    expect(res.json.status).toBe(1);
    expect((res.json.signers as { status: number }[]).map((s) => s.status)).toEqual([0]);
  });

  it("5. Get Document (GET /api/v3/documents/{id}/content, Accept: application/pdf): 200 and a PDF", async () => {
    const res = await send("GET", `/api/v3/documents/${vars.documentId}/content`, { Authorization: `Bearer ${vars.accessToken}`, Accept: "application/pdf" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/pdf");
    expect(res.buf.equals(pdf)).toBe(true);
    // "To download a JSON representation instead of a PDF, change the Accept header to application/json."
    const json = await send("GET", `/api/v3/documents/${vars.documentId}/content`, { Authorization: `Bearer ${vars.accessToken}`, Accept: "application/json" });
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toContain("application/json");
    expect(Buffer.from(JSON.parse(json.buf.toString("utf8")) as string, "base64").equals(pdf)).toBe(true);
  });

  it("6. Delete Casefile (DELETE /api/v1/casefiles/{id}, Bearer): 200; the case file is then deleted (status 3)", async () => {
    const res = await send("DELETE", `/api/v1/casefiles/${vars.casefileId}`, { Authorization: `Bearer ${vars.accessToken}` });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: Number(vars.casefileId), status: 3 });
    const after = await send("GET", `/api/v1/casefiles/${vars.casefileId}`, { Authorization: `Bearer ${vars.accessToken}` });
    expect(after.json.status).toBe(3);
    const row = await testDb().caseFile.findUniqueOrThrow({ where: { id: Number(vars.casefileId) } });
    expect(row.deletedAt).toBeInstanceOf(Date);
  });
});

describe("what the collection's descriptions promise beyond its checks", () => {
  const signable = JSON.stringify({
    caseFile: {
      title: "Signed and downloaded",
      signers: [{ name: "Jane Roe", email: "jane@example.com", role: "signer", enableInsecureSigning: true, insecureSigningMethods: ["text"] }],
      documents: [{ title: "Contract Document", name: "contract.pdf" }],
    },
  });

  async function createAndAwaitJob(data: string): Promise<{ caseFileId: number; link: string }> {
    const created = await send("POST", "/send/api/v1/casefiles/20251022/create", { "X-Auth-Token": vars.accessToken! }, createForm(data));
    expect(created.status).toBe(200);
    const { uuid, payloadHash } = (created.json.jobs as { uuid: string; payloadHash: string }[])[0]!;
    vars.jobUuid = uuid;
    vars.payloadHash = payloadHash;
    const job = await pollUntilFinal();
    const result = (job.result as { data: { caseFile: { id: number }; signingLinks: { signingLink: string }[] } }).data;
    return { caseFileId: result.caseFile.id, link: result.signingLinks[0]!.signingLink };
  }

  it("once completed (status 5), the document content is the signed PDF, and signer status is 3 (signed)", async () => {
    const { caseFileId, link } = await createAndAwaitJob(signable);
    expect((await postJson(`${link}/sign`, { method: "text", value: "Jane Roe" })).status).toBe(200);
    await eventually(async () => (await testDb().caseFile.findUniqueOrThrow({ where: { id: caseFileId } })).status === 5, 30_000, "case file completed");
    const cf = await send("GET", `/api/v1/casefiles/${caseFileId}`, { Authorization: `Bearer ${vars.accessToken}` });
    expect(cf.json.status).toBe(5);
    expect((cf.json.signers as { status: number }[]).map((s) => s.status)).toEqual([3]);
    const documentId = (cf.json.documents as { id: number }[])[0]!.id;
    const signed = await send("GET", `/api/v3/documents/${documentId}/content`, { Authorization: `Bearer ${vars.accessToken}`, Accept: "application/pdf" });
    expect(signed.status).toBe(200);
    expect(signed.buf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(signed.buf.equals(pdf)).toBe(false);
    const row = await testDb().document.findUniqueOrThrow({ where: { id: documentId } });
    expect(row.signedSha256).not.toBeNull();
    // sdk-php's getContent(false): the original.
    const original = await send("GET", `/api/v3/documents/${documentId}/content?signed=false`, { Authorization: `Bearer ${vars.accessToken}` });
    expect(original.buf.equals(pdf)).toBe(true);
  }, 60_000);

  it("deleting a case file out for signing closes its signing link at once", async () => {
    const { caseFileId, link } = await createAndAwaitJob(
      JSON.stringify({ ...JSON.parse(signable), caseFile: { ...JSON.parse(signable).caseFile, title: "Withdrawn" } }),
    );
    expect((await send("DELETE", `/api/v3/casefiles/${caseFileId}`, { Authorization: `Bearer ${vars.accessToken}` })).status).toBe(200);
    const sign = await postJson(`${link}/sign`, { method: "text", value: "Jane Roe" });
    expect(sign.status).toBe(410);
    // A repeated DELETE answers the same; another customer's id is 404, like a missing one.
    expect((await send("DELETE", `/api/v3/casefiles/${caseFileId}`, { Authorization: `Bearer ${vars.accessToken}` })).status).toBe(200);
    const stranger = await createCustomer(testDb(), { name: "Stranger" }, TEST_ENCRYPTION_KEY);
    const strangerToken = (await send("POST", "/oauth/token", { "Content-Type": "application/json" }, JSON.stringify(postmanApiKeysBody(stranger)))).json
      .access_token as string;
    for (const method of ["GET", "DELETE"]) {
      const other = await send(method, `/api/v1/casefiles/${caseFileId}`, { Authorization: `Bearer ${strangerToken}` });
      const missing = await send(method, "/api/v1/casefiles/2000000000", { Authorization: `Bearer ${strangerToken}` });
      expect(other.status).toBe(404);
      expect(other.json).toEqual(missing.json);
    }
    expect(
      (
        await send("GET", `/api/v3/documents/${(await testDb().document.findFirstOrThrow({ where: { caseFileId } })).id}/content`, {
          Authorization: `Bearer ${strangerToken}`,
        })
      ).status,
    ).toBe(404);
  }, 60_000);
});
