import { closeTestDb, getToken, newCustomer, postCreate, testDb, type UploadFile } from "../support/api";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import { abortedPost, multipartBody, rawPost } from "../support/raw-http";
import type { ServiceProcess } from "../support/services";
import { isStored, ownQueuePrefix, ownStorageDir, stagingEntries, waitForEmptyStaging } from "../support/storage-check";
import { startSystem, type System } from "../support/system";

/*
 * Hostile and broken multipart requests against a gateway with small, explicit limits. Each one must
 * be answered with a 4xx (never a 500, never a crash), write no job row and leave no staged file.
 * The gateway runs alone, with a storage folder and queue prefix of its own (the staging checks must
 * not see other test files' uploads); success is judged where the gateway's work ends: a 200, a job
 * row and the PDFs committed to content-addressed storage.
 */

const MAX_FILE_BYTES = 20_000;
const MAX_FILES = 2;
const MAX_FIELD_BYTES = 50_000;

let system: System;
let gateway: ServiceProcess;
let storageDir: string;
let token: string;
let customerId: number;
let contract: Buffer;
let appendix: Buffer;
let big: Buffer;
const rejected: Buffer[] = [];

const createUrl = () => `${gateway.url}/send/api/v1/casefiles/20251022/create`;
const files = (): UploadFile[] => [
  { name: "contract.pdf", content: contract },
  { name: "appendix.pdf", content: appendix },
];

beforeAll(async () => {
  storageDir = ownStorageDir("multipart-abuse");
  system = await startSystem(
    [],
    { STORAGE_DIR: storageDir, QUEUE_PREFIX: ownQueuePrefix("multipart-abuse") },
    {
      UPLOAD_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      UPLOAD_MAX_FILES: String(MAX_FILES),
      UPLOAD_MAX_FIELD_BYTES: String(MAX_FIELD_BYTES),
    },
  );
  gateway = system.gateway;
  const creds = await newCustomer();
  customerId = creds.customerId;
  token = await getToken(gateway.url, creds);
  [contract, appendix, big] = await Promise.all([
    makePdf("multipart-abuse contract"),
    makePdf("multipart-abuse appendix", 2),
    makePdf("multipart-abuse oversized", 150),
  ]);
  expect(big.length).toBeGreaterThan(MAX_FILE_BYTES);
  rejected.push(contract, appendix, big);
});

afterAll(async () => {
  await system?.stop();
  // No worker here: remove the accepted jobs so no other file's pending-job sweeper ever picks them up.
  if (customerId !== undefined) await testDb().creationJob.deleteMany({ where: { customerId } });
  await closeTestDb();
});

/**
 * The invariants after every rejected request: alive, healthy, nothing written, nothing staged.
 * When the body stream itself breaks, multer answers as soon as the part stream errors, while the
 * storage engine is still deleting its partial file: `waitForStaging` gives that removal a moment.
 */
async function expectNoTrace(opts: { waitForStaging?: boolean } = {}): Promise<void> {
  expect(gateway.isRunning()).toBe(true);
  const health = await fetch(`${gateway.url}/healthz`);
  expect(health.status).toBe(200);
  expect(await testDb().creationJob.count({ where: { customerId } })).toBe(0);
  const left = opts.waitForStaging ? await waitForEmptyStaging(storageDir) : stagingEntries(storageDir);
  expect(left).toEqual([]);
  for (const c of rejected) expect(isStored(storageDir, c)).toBe(false);
  expect(gateway.logs).not.toMatch(/unhandled error/);
}

function expectError(body: unknown, status: number, error: string) {
  expect(body).toMatchObject({ error, statusCode: status, message: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at /); // no stack trace
}

function issues(body: unknown): { path: string; code: string }[] {
  return ((body as { errors?: { path: string; code: string }[] }).errors ?? []).map(({ path, code }) => ({ path, code }));
}

describe("malformed multipart requests to the create endpoint", () => {
  it("malformed JSON in data: 400, path data, code invalid_json", async () => {
    const res = await postCreate(gateway.url, token, '{"caseFile": {"title": "x",', files());
    expect(res.status).toBe(400);
    expectError(res.body, 400, "validation_failed");
    expect(issues(res.body)).toContainEqual({ path: "data", code: "invalid_json" });
    await expectNoTrace();
  });

  it("data that is JSON but not an object: 400 on path data", async () => {
    const res = await postCreate(gateway.url, token, "[1,2,3]", files());
    expect(res.status).toBe(400);
    expectError(res.body, 400, "validation_failed");
    expect(issues(res.body)).toContainEqual({ path: "data", code: "invalid_type" });
    await expectNoTrace();
  });

  it("data sent as a file part: 400 on path data", async () => {
    const res = await postCreate(gateway.url, token, undefined, [
      { name: "data.json", content: Buffer.from(JSON.stringify(validCaseFile())), field: "data", type: "application/json" },
      { name: "contract.pdf", content: contract },
    ]);
    expect(res.status).toBe(400);
    expectError(res.body, 400, "validation_failed");
    expect(issues(res.body).map((i) => i.path)).toContain("data");
    await expectNoTrace();
  });

  it("data sent twice: 400 on path data", async () => {
    const boundary = "----twice";
    const body = multipartBody(boundary, [
      { name: "data", content: JSON.stringify(validCaseFile()) },
      { name: "data", content: JSON.stringify(validCaseFile()) },
      { name: "files", filename: "contract.pdf", type: "application/pdf", content: contract },
      { name: "files", filename: "appendix.pdf", type: "application/pdf", content: appendix },
    ]);
    const res = await rawPost(createUrl(), { "x-auth-token": token, "content-type": `multipart/form-data; boundary=${boundary}` }, body);
    expect(res.status).toBe(400);
    expectError(res.json, 400, "validation_failed");
    expect(issues(res.json).map((i) => i.path)).toContain("data");
    await expectNoTrace();
  });

  it("missing data part: 400, path data, code required", async () => {
    const res = await postCreate(gateway.url, token, undefined, files());
    expect(res.status).toBe(400);
    expectError(res.body, 400, "validation_failed");
    expect(issues(res.body)).toContainEqual({ path: "data", code: "required" });
    await expectNoTrace();
  });

  it("missing files: 400, path files, code required, listed once", async () => {
    const res = await postCreate(gateway.url, token, validCaseFile(), []);
    expect(res.status).toBe(400);
    expectError(res.body, 400, "validation_failed");
    const all = issues(res.body);
    expect(all.filter((i) => i.path === "files" && i.code === "required")).toHaveLength(1);
    // The documents then name files that were not uploaded.
    expect(all).toContainEqual({ path: "caseFile.documents[0].name", code: "document_file_missing" });
    await expectNoTrace();
  });

  it("a JSON body instead of multipart: 415", async () => {
    const res = await fetch(createUrl(), {
      method: "POST",
      headers: { "x-auth-token": token, "content-type": "application/json" },
      body: JSON.stringify({ data: JSON.stringify(validCaseFile()) }),
    });
    expect(res.status).toBe(415);
    expectError(await res.json(), 415, "unsupported_media_type");
    await expectNoTrace();
  });

  it("a form-urlencoded body: 415", async () => {
    const res = await fetch(createUrl(), {
      method: "POST",
      headers: { "x-auth-token": token },
      body: new URLSearchParams({ data: JSON.stringify(validCaseFile()) }),
    });
    expect(res.status).toBe(415);
    expectError(await res.json(), 415, "unsupported_media_type");
    await expectNoTrace();
  });

  it("a PNG and a text file named .pdf: 400 not_pdf on each, checked by content", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
    const text = Buffer.from("This is a plain text file pretending to be a PDF.\n%%EOF\n");
    rejected.push(png, text);
    const res = await postCreate(gateway.url, token, validCaseFile(), [
      { name: "contract.pdf", content: png, type: "application/pdf" },
      { name: "appendix.pdf", content: text, type: "application/pdf" },
    ]);
    expect(res.status).toBe(400);
    expectError(res.body, 400, "validation_failed");
    expect(issues(res.body)).toEqual(
      expect.arrayContaining([
        { path: "files[0]", code: "not_pdf" },
        { path: "files[1]", code: "not_pdf" },
      ]),
    );
    await expectNoTrace();
  });

  it("an empty file: 400 empty_file", async () => {
    const res = await postCreate(gateway.url, token, validCaseFile(), [
      { name: "contract.pdf", content: contract },
      { name: "appendix.pdf", content: Buffer.alloc(0) },
    ]);
    expect(res.status).toBe(400);
    expect(issues(res.body)).toContainEqual({ path: "files[1]", code: "empty_file" });
    await expectNoTrace();
  });

  it("a real PDF over UPLOAD_MAX_FILE_BYTES: 413", async () => {
    const res = await postCreate(gateway.url, token, validCaseFile(), [
      { name: "contract.pdf", content: big },
      { name: "appendix.pdf", content: appendix },
    ]);
    expect(res.status).toBe(413);
    expectError(res.body, 413, "payload_too_large");
    expect(issues(res.body)[0]?.code).toBe("file_too_large");
    await expectNoTrace();
  });

  it("more files than UPLOAD_MAX_FILES: 400", async () => {
    const payload = validCaseFile({
      documents: [
        { title: "Contract", name: "contract.pdf" },
        { title: "Appendix", name: "appendix.pdf", signable: false },
        { title: "Third", name: "third.pdf", signable: false },
      ],
    });
    const res = await postCreate(gateway.url, token, payload, [...files(), { name: "third.pdf", content: contract }]);
    expect(res.status).toBe(400);
    expectError(res.body, 400, "validation_failed");
    expect(issues(res.body)).toContainEqual({ path: "files", code: "too_many_files" });
    await expectNoTrace();
  });

  it("a file in a part other than files: 400", async () => {
    const res = await postCreate(gateway.url, token, validCaseFile(), [
      { name: "contract.pdf", content: contract },
      { name: "appendix.pdf", content: appendix, field: "attachment" },
    ]);
    expect(res.status).toBe(400);
    expectError(res.body, 400, "validation_failed");
    expect(issues(res.body).map((i) => i.path)).toContain("attachment");
    await expectNoTrace();
  });

  it("an unknown extra text field: 400 on that field", async () => {
    const form = new FormData();
    form.append("data", JSON.stringify(validCaseFile()));
    form.append("colour", "blue");
    for (const f of files()) form.append("files", new Blob([f.content], { type: "application/pdf" }), f.name);
    const res = await fetch(createUrl(), { method: "POST", headers: { "x-auth-token": token }, body: form });
    const body = (await res.json()) as unknown;
    expect(res.status).toBe(400);
    expectError(body, 400, "validation_failed");
    expect(issues(body)).toContainEqual({ path: "colour", code: "unexpected_field" });
    await expectNoTrace();
  });

  it("a data field over UPLOAD_MAX_FIELD_BYTES: 413", async () => {
    const res = await postCreate(gateway.url, token, validCaseFile({ metaData: "m".repeat(MAX_FIELD_BYTES) }), files());
    expect(res.status).toBe(413);
    expectError(res.body, 413, "payload_too_large");
    await expectNoTrace();
  });

  it("many text fields: 400, not a crash", async () => {
    const form = new FormData();
    form.append("data", JSON.stringify(validCaseFile()));
    for (let i = 0; i < 50; i++) form.append(`f${i}`, "x");
    for (const f of files()) form.append("files", new Blob([f.content], { type: "application/pdf" }), f.name);
    const res = await fetch(createUrl(), { method: "POST", headers: { "x-auth-token": token }, body: form });
    expect(res.status).toBe(400);
    expectError(await res.json(), 400, "validation_failed");
    await expectNoTrace();
  });
});

describe("hand-built broken multipart bodies (raw HTTP)", () => {
  const boundary = "----esign-abuse-boundary";
  const headers = () => ({ "x-auth-token": token, "content-type": `multipart/form-data; boundary=${boundary}` });
  const full = () =>
    multipartBody(boundary, [
      { name: "data", content: JSON.stringify(validCaseFile()) },
      { name: "files", filename: "contract.pdf", type: "application/pdf", content: contract },
      { name: "files", filename: "appendix.pdf", type: "application/pdf", content: appendix },
    ]);

  it("a body truncated in the middle of a file: 400", async () => {
    const body = full();
    const cut = body.subarray(0, body.indexOf(Buffer.from("%%EOF")) - 10);
    const res = await rawPost(createUrl(), headers(), cut);
    expect(res.status).toBe(400);
    expectError(res.json, 400, "bad_request");
    await expectNoTrace({ waitForStaging: true });
  });

  it("a body without the closing boundary: 400", async () => {
    const body = full();
    const res = await rawPost(createUrl(), headers(), body.subarray(0, body.length - `--${boundary}--\r\n`.length));
    expect(res.status).toBe(400);
    await expectNoTrace({ waitForStaging: true });
  });

  it("a multipart content type without a boundary: 400", async () => {
    const res = await rawPost(createUrl(), { "x-auth-token": token, "content-type": "multipart/form-data" }, full());
    expect(res.status).toBe(400);
    expectError(res.json, 400, "bad_request");
    await expectNoTrace({ waitForStaging: true });
  });

  it("garbage bytes under a multipart content type: 4xx", async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    const res = await rawPost(createUrl(), headers(), garbage);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await expectNoTrace({ waitForStaging: true });
  });

  it("a malformed part header: 4xx", async () => {
    const body = Buffer.from(`--${boundary}\r\nContent-Disposition form-data name=data\r\n\r\n{}\r\n--${boundary}--\r\n`);
    const res = await rawPost(createUrl(), headers(), body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await expectNoTrace({ waitForStaging: true });
  });

  it("a client that disconnects mid-upload: the gateway survives and the partial file is not kept", async () => {
    const body = full();
    const partial = body.subarray(0, body.indexOf(Buffer.from("%%EOF")) - 10);
    await abortedPost(createUrl(), headers(), partial, body.length);
    await expectNoTrace({ waitForStaging: true });
  });

  it("the hand-built body itself is well formed: sent whole it is accepted (200)", async () => {
    const res = await rawPost(createUrl(), headers(), full());
    expect(res.status).toBe(200);
    const job = (res.json as { jobs: { uuid: string; payloadHash: string }[] }).jobs[0]!;
    const row = await testDb().creationJob.findUniqueOrThrow({ where: { id: job.uuid } });
    expect(row).toMatchObject({ customerId, payloadHash: job.payloadHash, status: "pending" });
    expect(isStored(storageDir, contract)).toBe(true);
    expect(stagingEntries(storageDir)).toEqual([]);
  });
});

describe("after all that", () => {
  it("a file name with non-ASCII characters (UTF-8, as browsers and fetch send it) matches its document", async () => {
    const [c3, a3] = await Promise.all([makePdf("multipart-abuse kontrakt"), makePdf("multipart-abuse bilag")]);
    const payload = validCaseFile({
      documents: [
        { title: "Kontrakt", name: "kontrakt-æøå.pdf", roles: ["Employee", "Manager"] },
        { title: "Bilag", name: "bilag – 附件.pdf", signable: false },
      ],
    });
    const res = await postCreate(gateway.url, token, payload, [
      { name: "kontrakt-æøå.pdf", content: c3! },
      { name: "bilag – 附件.pdf", content: a3! },
    ]);
    expect(res.body.errors).toBeUndefined();
    expect(res.status).toBe(200);
    const row = await testDb().creationJob.findUniqueOrThrow({ where: { id: res.body.jobs[0]!.uuid } });
    expect((row.files as { name: string }[]).map((f) => f.name)).toEqual(["kontrakt-æøå.pdf", "bilag – 附件.pdf"]);
  });

  it("a valid request still succeeds, with the PDF type checked by content (octet-stream accepted)", async () => {
    expect(gateway.isRunning()).toBe(true);
    const [c2, a2] = await Promise.all([makePdf("multipart-abuse after contract"), makePdf("multipart-abuse after appendix")]);
    const res = await postCreate(gateway.url, token, validCaseFile(), [
      { name: "contract.pdf", content: c2!, type: "application/octet-stream" },
      { name: "appendix.pdf", content: a2! },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "handled", message: "Job created" });
    const job = res.body.jobs[0]!;
    const row = await testDb().creationJob.findUniqueOrThrow({ where: { id: job.uuid } });
    expect(row).toMatchObject({ customerId, payloadHash: job.payloadHash });
    expect(row.files).toEqual([
      expect.objectContaining({ name: "contract.pdf", size: c2!.length }),
      expect.objectContaining({ name: "appendix.pdf", size: a2!.length }),
    ]);
    expect(isStored(storageDir, c2!)).toBe(true);
    expect(isStored(storageDir, a2!)).toBe(true);
    expect(stagingEntries(storageDir)).toEqual([]);
    expect(gateway.logs).not.toMatch(/unhandled error/);
  });
});
