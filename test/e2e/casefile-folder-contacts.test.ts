import type { CustomerCredentials } from "@esign/accounts";
import { EsignApiError, EsignClient } from "@esign/sdk";
import { closeTestDb, getToken, newCustomer, postCreate, testDb, waitForJob } from "../support/api";
import { makePdf } from "../support/pdf";
import { startSystem, type System } from "../support/system";

/*
 * What the create does with `folderId` and `storeAsContact` (issue 24, items 3 and 6), through the
 * create endpoint and the casefile-worker:
 * - folderId must name a folder of the caller's customer, else the create is refused (400 naming
 *   caseFile.folderId) before anything is stored; a folder deleted after the create was accepted
 *   and before the job ran leaves the case file without a folder (the job does not fail);
 * - signers with storeAsContact and an email, and cc recipients (storeAsContact defaults to true),
 *   become the customer's contacts, once per email (ignoring case) across case files: an existing
 *   contact keeps its id and its name.
 * The worker starts only after the first creates, so that a folder can be deleted in between.
 */

let system: System;
let me: CustomerCredentials;
let other: CustomerCredentials;
let token: string;
let pdf: Buffer;

const api = async (method: string, path: string, body?: unknown, bearer = token) => {
  const res = await fetch(`${system.gateway.url}/api/v3/${path}`, {
    method,
    headers: { Authorization: `Bearer ${bearer}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text === "" ? undefined : (JSON.parse(text) as unknown) };
};

const newFolder = async (title: string, bearer = token) => ((await api("POST", "folders", { title }, bearer)).json as { id: number }).id;

interface Person {
  name: string;
  email?: string;
  storeAsContact?: boolean;
  onBehalfOf?: string;
}

const payload = (title: string, signers: Person[], ccRecipients: Person[] = [], extra: Record<string, unknown> = {}) => ({
  caseFile: { title, signers, documents: [{ title: "Contract", name: "contract.pdf" }], ...(ccRecipients.length > 0 ? { ccRecipients } : {}), ...extra },
});

const create = (data: unknown) => postCreate(system.gateway.url, token, data, [{ name: "contract.pdf", content: pdf }]);

async function createAccepted(data: unknown): Promise<{ uuid: string; payloadHash: string }> {
  const res = await create(data);
  expect(res.status).toBe(200);
  return res.body.jobs[0]!;
}

async function caseFileOf(job: { uuid: string; payloadHash: string }): Promise<number> {
  const done = await waitForJob(system.gateway.url, job.uuid, job.payloadHash);
  expect(done.jobStatus).toBe("completed");
  return done.result!.data.caseFile.id;
}

const contacts = async () =>
  ((await api("GET", "contacts?sort=email")).json as { id: number; name: string; email: string; onBehalfOf: string | null }[]).map((c) => ({
    id: c.id,
    name: c.name,
    email: c.email,
    onBehalfOf: c.onBehalfOf,
  }));

beforeAll(async () => {
  system = await startSystem([]);
  me = await newCustomer();
  other = await newCustomer();
  token = await getToken(system.gateway.url, me);
  pdf = await makePdf("folder and contacts");
}, 60_000);

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

describe("folderId and storeAsContact at create", () => {
  let kept: number;
  let doomed: number;
  let firstJob: { uuid: string; payloadHash: string };
  let doomedJob: { uuid: string; payloadHash: string };

  it("refuses a folderId that is another customer's, unknown or out of range with a 400 naming caseFile.folderId, storing nothing", async () => {
    const theirs = await newFolder("Their folder", await getToken(system.gateway.url, other));
    for (const folderId of [theirs, 99_999_999]) {
      const res = await create(payload("Refused", [{ name: "Alice", email: "alice@example.com" }], [], { folderId }));
      expect([folderId, res.status]).toEqual([folderId, 400]);
      expect(res.body.errors).toEqual([{ path: "caseFile.folderId", code: "unknown_folder", message: `no folder ${folderId} of this customer` }]);
    }
    // Beyond PostgreSQL's integer the payload's own rule refuses it, before any lookup.
    const huge = await create(payload("Refused", [{ name: "Alice", email: "alice@example.com" }], [], { folderId: 3_000_000_000 }));
    expect(huge.body.errors).toEqual([expect.objectContaining({ path: "caseFile.folderId", code: "too_big" })]);
    // The payload's other rules still run first: folderId 0 is a shape error of its own.
    const zero = await create(payload("Refused", [{ name: "Alice", email: "alice@example.com" }], [], { folderId: 0 }));
    expect(zero.body.errors?.map((e) => e.path)).toEqual(["caseFile.folderId"]);
    expect(await testDb().creationJob.count({ where: { customerId: me.customerId } })).toBe(0);
  });

  it("accepts a folder of the customer; one deleted before the job runs leaves its case file without a folder", async () => {
    kept = await newFolder("Kept");
    doomed = await newFolder("Doomed");
    await api("POST", "contacts", { name: "Erin Original", email: "erin@example.com" });
    firstJob = await createAccepted(
      payload(
        "First",
        [
          { name: "Alice Andersen", email: "alice@example.com", storeAsContact: true },
          { name: "Bob Berg", email: "bob@example.com" },
        ],
        [
          { name: "Carol", email: "carol@example.com" },
          { name: "Dan", email: "dan@example.com", storeAsContact: false },
          { name: "Erin From Case", email: "ERIN@example.com" },
        ],
        { folderId: kept },
      ),
    );
    doomedJob = await createAccepted(payload("Doomed folder", [{ name: "Gus", email: "gus@example.com" }], [], { folderId: doomed }));
    // Nothing has made the case files yet: the worker is not running.
    expect(await testDb().caseFile.count({ where: { customerId: me.customerId } })).toBe(0);
    expect((await api("DELETE", `folders/${doomed}`)).status).toBe(204);

    await system.start("casefile-worker");
    const first = await caseFileOf(firstJob);
    const homeless = await caseFileOf(doomedJob);

    expect((await api("GET", `casefiles/${first}`)).json).toMatchObject({ id: first, folderId: kept });
    expect(((await api("GET", `folders/${kept}/casefiles`)).json as { id: number }[]).map((c) => c.id)).toEqual([first]);
    expect(((await api("GET", `casefiles/${first}/folders`)).json as { id: number }[]).map((f) => f.id)).toEqual([kept]);
    expect((await api("GET", `casefiles/${homeless}`)).json).toMatchObject({ id: homeless, folderId: null });
    expect((await api("GET", `casefiles/${homeless}/folders`)).json).toEqual([]);
  });

  it("keeps signers with storeAsContact and cc recipients as contacts, once per email across case files; an existing contact keeps its id and name", async () => {
    const afterFirst = await contacts();
    expect(afterFirst).toEqual([
      { id: expect.any(Number), name: "Alice Andersen", email: "alice@example.com", onBehalfOf: null },
      { id: expect.any(Number), name: "Carol", email: "carol@example.com", onBehalfOf: null },
      { id: expect.any(Number), name: "Erin Original", email: "erin@example.com", onBehalfOf: null },
    ]);

    const second = await caseFileOf(
      await createAccepted(
        payload(
          "Second",
          [
            { name: "Alice A. Changed", email: "ALICE@example.com", storeAsContact: true },
            { name: "Hanne", email: "hanne@example.com", storeAsContact: true, onBehalfOf: "Acme A/S" },
            { name: "Hanne Twice", email: "Hanne@Example.com", storeAsContact: true },
          ],
          [{ name: "Carol C.", email: "carol@example.com" }],
          { folderId: kept },
        ),
      ),
    );
    expect(second).toEqual(expect.any(Number));
    const afterSecond = await contacts();
    expect(afterSecond).toEqual([
      afterFirst[0],
      afterFirst[1],
      afterFirst[2],
      { id: expect.any(Number), name: "Hanne", email: "hanne@example.com", onBehalfOf: "Acme A/S" },
    ]);
    // The people who had a contact drew no id: Hanne's is the next one (ON CONFLICT alone burns one each).
    expect(afterSecond[3]!.id).toBe(Math.max(...afterFirst.map((c) => c.id)) + 1);
    // The other customer's address book is its own.
    expect((await api("GET", "contacts", undefined, await getToken(system.gateway.url, other))).json).toEqual([]);
  });

  it("the TypeScript SDK files case files in folders and keeps contacts (client.folders, client.contacts)", async () => {
    const client = new EsignClient({ baseUrl: system.gateway.url, credentials: { clientId: me.clientId, clientSecret: me.clientSecret } });
    const parent = await client.folders.create({ title: "SDK parent" });
    const child = await client.folders.create({ title: "SDK child", parentId: parent.id });
    expect(child).toMatchObject({ title: "SDK child", parentId: parent.id });
    expect((await client.folders.list({ parentId: parent.id })).map((f) => f.id)).toEqual([child.id]);
    expect(await client.folders.update(child.id, { parentId: null })).toMatchObject({ id: child.id, parentId: null });
    const moveUnder = await client.folders.update(parent.id, { parentId: parent.id }).catch((e: unknown) => e);
    expect(moveUnder).toBeInstanceOf(EsignApiError);
    expect((moveUnder as EsignApiError).errors?.map((e) => e.path)).toEqual(["parentId"]);

    const [caseFileId] = ((await api("GET", `folders/${kept}/casefiles`)).json as { id: number }[]).map((c) => c.id);
    await client.folders.addCaseFile(child.id, caseFileId!);
    expect((await client.folders.caseFiles(child.id, { perPage: 10 })).map((c) => [c.id, c.folderId])).toEqual([[caseFileId, child.id]]);
    expect((await client.getCaseFile(caseFileId!)).folderId).toBe(child.id);
    expect(await client.folders.ofCaseFile(caseFileId!)).toMatchObject({ id: child.id });
    await client.folders.removeCaseFile(child.id, caseFileId!);
    expect(await client.folders.ofCaseFile(caseFileId!)).toBeNull();
    await client.folders.delete(child.id);
    expect(await client.folders.get(child.id).catch((e: unknown) => (e as EsignApiError).status)).toBe(404);

    const ivy = await client.contacts.create({ name: "Ivy", email: "ivy@example.com", onBehalfOf: "Ivy ApS" });
    expect((await client.contacts.list({ email: "IVY@example.com" })).map((c) => c.id)).toEqual([ivy.id]);
    expect(await client.contacts.update(ivy.id, { onBehalfOf: null })).toMatchObject({ name: "Ivy", onBehalfOf: null });
    const twice = await client.contacts.create({ name: "Ivy 2", email: "Ivy@Example.com" }).catch((e: unknown) => e);
    expect([(twice as EsignApiError).status, (twice as EsignApiError).errors?.[0]?.path]).toEqual([409, "email"]);
    await client.contacts.delete(ivy.id);
    expect((await client.contacts.list({ name: "ivy" })).length).toBe(0);
  });
});
