import fc from "fast-check";
import { closeTestDb, getToken, newCustomer, testDb } from "../support/api";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import { createCase } from "../support/signing-api";
import { startSystem, type System } from "../support/system";

/*
 * Property-based fuzzing of every entry point that takes client input (issue 14): arbitrary JSON,
 * strings (lone surrogates and NUL included), numbers, deep nesting and multipart shapes thrown at
 * create, the token endpoint, the signing actions, the subscription API, and (issue 26) the public
 * /verify, route parameters of every kind of route, and the public job status. For every case: never
 * a 5xx, never a hang (each answer within 10 s), and nothing written when the answer is a 4xx; after
 * all of them the gateway still answers. FUZZ_RUNS sets the cases per target: 60 by default, so that
 * `pnpm test` keeps its budget (150 per target made this the slowest suite of a CI run, 99 s loaded);
 * fast-check draws a new seed each run, so CI runs add up to many more, and a deep run is
 * `FUZZ_RUNS=2000 pnpm test test/e2e/fuzz`. A failure prints its seed and path to replay it.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const TIMEOUT_MS = 10_000;

let system: System;
let token: string;
let customerId: number;
let pdf: Buffer;
let signingUrl: string;
let signerId: number;
const ran: Record<string, number> = {};

// Strings of any UTF-16 code units (lone surrogates, NUL, controls), and of Unicode characters.
const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "\ud800", "x".repeat(3000)),
);
const anyNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, Number.MAX_VALUE, 1e-300));
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    anyString,
    anyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(anyString, tie("value"), { maxKeys: 5 }),
  ),
})).value;
/** Deeper than any handler expects: 1 to 200 levels of arrays or objects. */
const deep = fc.integer({ min: 1, max: 200 }).map((n) => JSON.parse(`${"[".repeat(n)}1${"]".repeat(n)}`) as unknown);

/** A valid create payload with one leaf replaced by anything, or a key added anywhere. */
function mutated(base: unknown) {
  return fc.tuple(fc.nat(), json, anyString).map(([pick, value, key]) => {
    const copy = JSON.parse(JSON.stringify(base)) as unknown;
    const slots: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) {
          slots.push({ parent: v, key: i });
          walk(x);
        }
      } else if (v && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          slots.push({ parent: v as Record<string, unknown>, key: k });
          walk(x);
        }
      }
    };
    walk(copy);
    const slot = slots[pick % slots.length]!;
    if (pick % 3 === 0 && !Array.isArray(slot.parent)) (slot.parent as Record<string, unknown>)[key] = value;
    else (slot.parent as Record<string | number, unknown>)[slot.key] = value;
    return copy;
  });
}

async function send(path: string, init: RequestInit): Promise<number> {
  const res = await fetch(`${system.gateway.url}${path}`, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  await res.arrayBuffer();
  return res.status;
}

function counted(target: string) {
  ran[target] = (ran[target] ?? 0) + 1;
}

beforeAll(async () => {
  system = await startSystem(["casefile-worker"], {}, { JOB_POLL_LIMIT_PER_MINUTE: "0" });
  const creds = await newCustomer();
  customerId = creds.customerId;
  token = await getToken(system.gateway.url, creds);
  pdf = await makePdf("fuzzed");
  await freshSigner();
}, 60_000);

/** A case file with one pending signer whose link the signing cases post to. */
async function freshSigner(): Promise<void> {
  const payload = validCaseFile({
    signers: [{ name: "Fuzz", email: "fuzz@example.com", enableInsecureSigning: true, insecureSigningMethods: ["text", "draw", "image"] }],
    documents: [{ title: "Contract", name: "contract.pdf" }],
    ccRecipients: [],
  });
  const cf = await createCase(system.gateway.url, token, payload, [{ name: "contract.pdf", content: pdf }]);
  const link = Object.values(cf.links)[0]!;
  signingUrl = new URL(link.url).pathname;
  signerId = link.signerId;
}

afterAll(async () => {
  const { "signing-accepted": accepted = 0, ...targets } = ran;
  const total = Object.values(targets).reduce((a, b) => a + b, 0);
  process.stdout.write(
    `fuzz: ${total} cases (${Object.entries(targets)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}; ${accepted} signing bodies valid by chance), none answered 5xx\n`,
  );
  await system?.stop();
  await closeTestDb();
});

describe("fuzzing: never a 5xx, never a hang, nothing written on a 4xx", () => {
  const jobsOfCustomer = () => testDb().creationJob.count({ where: { customerId } });

  it("POST create: arbitrary data parts (text, JSON, mutated payloads) and multipart shapes", async () => {
    const base = validCaseFile({ documents: [{ title: "Contract", name: "contract.pdf" }] });
    const data = fc.oneof(
      anyString,
      json.map((v) => JSON.stringify(v)),
      deep.map((v) => JSON.stringify({ caseFile: v })),
      mutated(base).map((v) => JSON.stringify(v)),
    );
    const part = fc.record({
      field: fc.constantFrom("files", "files[]", "data", "other", "file"),
      name: fc.oneof(
        fc.constant("contract.pdf"),
        anyString.filter((s) => !/[\r\n"]/.test(s)),
      ),
      content: fc.oneof(fc.constant("pdf"), fc.uint8Array({ maxLength: 200 }), fc.constant("%PDF-1.7\n%%EOF")),
    });
    await fc.assert(
      fc.asyncProperty(fc.option(data, { nil: undefined }), fc.array(part, { maxLength: 3 }), fc.boolean(), async (dataPart, parts, dataTwice) => {
        counted("create");
        const form = new FormData();
        if (dataPart !== undefined) form.append("data", dataPart);
        if (dataTwice && dataPart !== undefined) form.append("data", dataPart);
        for (const p of parts) {
          const bytes = p.content === "pdf" ? pdf : typeof p.content === "string" ? Buffer.from(p.content) : Buffer.from(p.content);
          form.append(p.field, new Blob([bytes], { type: "application/pdf" }), p.name);
        }
        const before = await jobsOfCustomer();
        const status = await send("/send/api/v1/casefiles/20251022/create", { method: "POST", headers: { "X-Auth-Token": token }, body: form });
        expect(status).toBeLessThan(500);
        if (status >= 400) expect(await jobsOfCustomer()).toBe(before);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("POST /oauth/token: arbitrary JSON and form bodies", async () => {
    const body = fc.oneof(
      json.map((v) => ({ type: "application/json", text: JSON.stringify(v) })),
      fc
        .dictionary(fc.constantFrom("grant_type", "client_id", "client_secret", "key", "nonce", "digest", "created_at", "refresh_token", "x"), anyString)
        .map((d) => ({
          type: "application/x-www-form-urlencoded",
          text: new URLSearchParams(d).toString(),
        })),
      anyString.map((s) => ({ type: "application/json", text: s })),
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        counted("token");
        const status = await send("/oauth/token", { method: "POST", headers: { "content-type": b.type }, body: b.text });
        expect(status).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  const SIGNING_ACTION_EVENTS = ["sign.signer.signed", "sign.signer.signedWithImageUploadAndNAP", "sign.signer.rejected"];

  it("POST the signing actions: arbitrary sign and reject bodies; the signer stays pending on a 4xx", async () => {
    const body = fc.oneof(
      json,
      fc.record(
        { method: fc.oneof(fc.constantFrom("text", "draw", "image", "mitid.dk"), anyString), value: fc.oneof(anyString, anyNumber, json) },
        { requiredKeys: [] },
      ),
      fc.record({ reason: fc.oneof(anyString, json) }, { requiredKeys: [] }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("sign", "reject"), body, async (action, b) => {
        counted("signing");
        // What a signing action writes, about this signer. (Other events of the customer keep coming
        // from earlier cases: a signature accepted by chance completes and finalizes its case file.)
        const actionEvents = () =>
          testDb().event.count({
            where: { customerId, eventType: { in: SIGNING_ACTION_EVENTS }, payload: { path: ["id"], equals: signerId } },
          });
        const events = await actionEvents();
        const status = await send(`${signingUrl}/${action}`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(b),
        });
        expect(status).toBeLessThan(500);
        if (status >= 400) {
          expect((await testDb().signer.findUniqueOrThrow({ where: { id: signerId } })).status).toBe(1);
          expect(await actionEvents()).toBe(events);
        } else {
          // A valid signature or rejection made by chance ends this signer's turn: the next cases get a new one.
          counted("signing-accepted");
          await freshSigner();
        }
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("POST and PUT the subscription API: arbitrary bodies", async () => {
    const body = fc.oneof(
      json,
      fc.record(
        {
          endpoint: fc.oneof(anyString, fc.webUrl(), json),
          eventTypes: fc.oneof(fc.array(anyString, { maxLength: 4 }), json),
          isActive: fc.oneof(fc.boolean(), json),
        },
        { requiredKeys: [] },
      ),
    );
    const subs = () => testDb().webhookSubscription.count({ where: { customerId } });
    const existing = await fetch(`${system.gateway.url}/webhook/api/v1/subscriptions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ eventTypes: ["sign.casefile.completed"], endpoint: "http://127.0.0.1:9/fuzz" }),
    });
    const id = ((await existing.json()) as { id: string }).id;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("POST", "PUT"), body, async (method, b) => {
        counted("subscriptions");
        const before = await subs();
        const row = await testDb().webhookSubscription.findUniqueOrThrow({ where: { id } });
        const path = method === "POST" ? "/webhook/api/v1/subscriptions" : `/webhook/api/v1/subscriptions/${id}`;
        const status = await send(path, { method, headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(b) });
        expect(status).toBeLessThan(500);
        if (status >= 400) {
          expect(await subs()).toBe(before);
          expect((await testDb().webhookSubscription.findUniqueOrThrow({ where: { id } })).updatedAt).toEqual(row.updatedAt);
        }
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("the v3 routes after create (issue 24): arbitrary bodies and queries on a draft, its signers, recipients, folders, contacts", async () => {
    const draft = await createCase(
      system.gateway.url,
      token,
      validCaseFile({ activateCaseFile: false, documents: [{ title: "Contract", name: "contract.pdf" }], ccRecipients: [] }),
      [{ name: "contract.pdf", content: pdf }],
    );
    const cf = draft.caseFileId;
    // A draft has no links yet: its signer from the database.
    const sid = (await testDb().signer.findFirstOrThrow({ where: { caseFileId: cf } })).id;
    const folder = await fetch(`${system.gateway.url}/api/v3/folders`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ title: "Fuzz folder" }),
    });
    const folderId = ((await folder.json()) as { id: number }).id;
    const targets: readonly { method: string; path: string }[] = [
      { method: "PUT", path: `/api/v3/casefiles/${cf}` },
      { method: "POST", path: `/api/v3/casefiles/${cf}/signers` },
      { method: "PUT", path: `/api/v3/casefiles/${cf}/signers/${sid}` },
      { method: "PUT", path: `/api/v3/signingrequests/${sid}` },
      { method: "POST", path: `/api/v3/casefiles/${cf}/recipients` },
      { method: "POST", path: "/api/v3/folders" },
      { method: "PUT", path: `/api/v3/folders/${folderId}` },
      { method: "POST", path: "/api/v3/contacts" },
    ];
    const body = fc.oneof(
      json,
      deep,
      fc.record(
        {
          title: fc.oneof(anyString, json),
          name: fc.oneof(anyString, json),
          email: fc.oneof(anyString, fc.emailAddress(), json),
          metaData: fc.oneof(anyString, json),
          sendAt: fc.oneof(anyNumber, json),
          expireAt: fc.oneof(anyNumber, json),
          parent: fc.oneof(anyNumber, json),
          reminderInterval: fc.oneof(anyNumber, json),
          insecureSigningMethods: fc.oneof(fc.array(anyString, { maxLength: 3 }), json),
        },
        { requiredKeys: [] },
      ),
    );
    // What any of these writes: a digest of the customer's rows, compared before and after a 4xx.
    const state = async () => {
      const db = testDb();
      const [caseFile, signers, recipients, folders, contacts] = await Promise.all([
        db.caseFile.findUniqueOrThrow({ where: { id: cf }, select: { title: true, metaData: true, sendAt: true, expireAt: true, status: true } }),
        db.signer.findMany({ where: { caseFileId: cf }, orderBy: { id: "asc" } }),
        db.ccRecipient.findMany({ where: { caseFileId: cf }, orderBy: { id: "asc" } }),
        db.folder.findMany({ where: { customerId }, orderBy: { id: "asc" } }),
        db.contact.count({ where: { customerId } }),
      ]);
      return JSON.stringify({ caseFile, signers, recipients, folders, contacts });
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), body, async (target, b) => {
        counted("v3");
        const before = await state();
        const status = await send(target.path, {
          method: target.method,
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(b),
        });
        expect(status).toBeLessThan(500);
        if (status >= 400) expect(await state()).toBe(before);
      }),
      { numRuns: RUNS },
    );
    // The list queries: any key and value, as sdk-php filters by any property and sdk-net pages.
    const query = fc.dictionary(
      fc.oneof(
        fc.constantFrom("title", "metaData", "reference", "status", "folderIds", "page", "per_page", "limit", "offset", "sort", "order", "deleted"),
        anyString,
      ),
      fc.oneof(anyString, anyNumber.map(String)),
      { maxKeys: 4 },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("casefiles", "documents", "folders", "contacts", `casefiles/${cf}/log`), query, async (list, q) => {
        counted("v3-lists");
        const status = await send(`/api/v3/${list}?${new URLSearchParams(q).toString()}`, { headers: { authorization: `Bearer ${token}` } });
        expect(status).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("POST /verify: arbitrary bytes, PDF-looking files with many /ByteRange entries, multipart shapes", async () => {
    const byteRange = fc
      .tuple(fc.nat({ max: 5000 }), fc.nat({ max: 5000 }), fc.nat({ max: 10_000 }), fc.nat({ max: 5000 }))
      .map(([a, b, c, d]) => `/ByteRange [${a} ${b} ${c} ${d}]`);
    const pdfLike = fc
      .tuple(fc.array(byteRange, { maxLength: 60 }), fc.nat({ max: 4000 }), fc.boolean())
      .map(([ranges, gap, hex]) => Buffer.from(`%PDF-1.7\n<${(hex ? "0a" : "zz").repeat(gap)}>\n${ranges.join("\n")}\n%%EOF\n`, "latin1"));
    const body = fc.oneof(
      pdfLike,
      fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b)),
      fc.constant(pdf),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom("application/pdf", "application/octet-stream", "multipart", "text/plain"), async (bytes, type) => {
        counted("verify");
        let init: RequestInit;
        if (type === "multipart") {
          const form = new FormData();
          form.append("file", new Blob([bytes], { type: "application/pdf" }), "x.pdf");
          init = { method: "POST", body: form };
        } else init = { method: "POST", headers: { "content-type": type }, body: bytes };
        const status = await send("/verify", init);
        expect(status).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("route parameters: arbitrary path segments, malformed percent-escapes included, at every kind of route", async () => {
    const escape = fc.oneof(
      fc.constantFrom("%E0", "%ff", "%", "%%", "%C3%28", "%ED%A0%80", "%00", "%2F", "..", "%2e%2e", "-1", "1e3", "99999999999999999999"),
      fc.string({ unit: "binary", maxLength: 12 }).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "x"))),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 4 }).map((bytes) => bytes.map((b) => `%${b.toString(16).padStart(2, "0")}`).join("")),
    );
    const template = fc.constantFrom(
      "/sign/{p}",
      "/sign/{p}/documents/{p}",
      "/t/{p}",
      "/api/v3/casefiles/{p}",
      "/api/v3/casefiles/{p}/documents",
      "/send/api/v1/casefiles/{p}",
      "/send/api/v1/casefiles/{p}/documents/{p}/file",
      "/api/v3/folders/{p}",
      "/api/v3/contacts/{p}",
      "/api/v3/credentials/{p}",
      "/webhook/api/v1/subscriptions/{p}",
    );
    await fc.assert(
      fc.asyncProperty(template, escape, fc.constantFrom("GET", "DELETE", "POST"), async (t, p, method) => {
        counted("route-params");
        const status = await send(t.replaceAll("{p}", p), { method, headers: { "X-Auth-Token": token, accept: "application/json" } });
        expect(status).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("POST the public job status: arbitrary bodies and pairs", async () => {
    const body = fc.oneof(
      json.map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            uuid: fc.oneof(fc.uuid(), anyString, json),
            payloadHash: fc.oneof(fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 }), anyString, json),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      anyString,
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        counted("job-status");
        const status = await send("/send/api/v1/queue/public/status", { method: "POST", headers: { "content-type": "application/json" }, body: b });
        expect(status).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("leaves the gateway up and answering", async () => {
    expect(system.gateway.isRunning()).toBe(true);
    expect((await fetch(`${system.gateway.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${system.gateway.url}/readyz`)).status).toBe(200);
  });
});
