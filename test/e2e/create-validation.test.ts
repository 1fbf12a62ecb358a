import { closeTestDb, getToken, newCustomer, postCreate, testDb, type UploadFile } from "../support/api";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import { isStored, ownQueuePrefix, ownStorageDir, stagingEntries } from "../support/storage-check";
import { startSystem, type System } from "../support/system";

/*
 * Every validation rule of the spec's tables and Errors section, one invalid request per rule, sent as
 * real multipart requests to a running gateway. Only the gateway is started, with a storage folder and
 * queue prefix of its own: a rejected request must never reach a worker, and the one valid request at
 * the end only needs its 200, its job row and its committed files.
 */

// biome-ignore lint/suspicious/noExplicitAny: payloads are mutated freely, per row
type Loose = any;

interface Row {
  name: string;
  mutate?: (cf: Loose, data: Loose) => void;
  /** Uploaded file names (default: the two the base payload names). */
  files?: string[];
  /** Each must be present in body.errors; `code` is checked when given. */
  expect: { path: string; code?: string }[];
}

const long = (n: number) => "x".repeat(n);

const rows: Row[] = [
  // --- required and bounded case file fields ---------------------------------------------------
  { name: "missing title", mutate: (cf) => delete cf.title, expect: [{ path: "caseFile.title", code: "required" }] },
  { name: "missing signers", mutate: (cf) => delete cf.signers, expect: [{ path: "caseFile.signers", code: "required" }] },
  { name: "missing documents", mutate: (cf) => delete cf.documents, expect: [{ path: "caseFile.documents", code: "required" }] },
  { name: "missing caseFile", mutate: (_cf, data) => delete data.caseFile, expect: [{ path: "caseFile", code: "required" }] },
  { name: "empty signers array", mutate: (cf) => (cf.signers = []), expect: [{ path: "caseFile.signers", code: "too_small" }] },
  { name: "empty documents array", mutate: (cf) => (cf.documents = []), expect: [{ path: "caseFile.documents", code: "too_small" }] },
  { name: "empty title", mutate: (cf) => (cf.title = ""), expect: [{ path: "caseFile.title", code: "too_small" }] },
  { name: "title of 1025 chars", mutate: (cf) => (cf.title = long(1025)), expect: [{ path: "caseFile.title", code: "too_big" }] },
  { name: "title not a string", mutate: (cf) => (cf.title = 42), expect: [{ path: "caseFile.title", code: "invalid_type" }] },
  {
    name: "document title of 1025 chars",
    mutate: (cf) => (cf.documents[0].title = long(1025)),
    expect: [{ path: "caseFile.documents[0].title", code: "too_big" }],
  },
  { name: "document without title", mutate: (cf) => delete cf.documents[1].title, expect: [{ path: "caseFile.documents[1].title", code: "required" }] },
  { name: "signer without name", mutate: (cf) => delete cf.signers[0].name, expect: [{ path: "caseFile.signers[0].name", code: "required" }] },
  { name: "signer with empty name", mutate: (cf) => (cf.signers[0].name = ""), expect: [{ path: "caseFile.signers[0].name", code: "too_small" }] },
  { name: "senderName of 1 char", mutate: (cf) => (cf.senderName = "A"), expect: [{ path: "caseFile.senderName", code: "too_small" }] },
  { name: "senderName of 256 chars", mutate: (cf) => (cf.senderName = long(256)), expect: [{ path: "caseFile.senderName", code: "too_big" }] },
  { name: "folderId 0", mutate: (cf) => (cf.folderId = 0), expect: [{ path: "caseFile.folderId", code: "too_small" }] },
  { name: "folderId not an integer", mutate: (cf) => (cf.folderId = 1.5), expect: [{ path: "caseFile.folderId" }] },
  { name: "visibilityMode 2", mutate: (cf) => (cf.visibilityMode = 2), expect: [{ path: "caseFile.visibilityMode", code: "invalid_value" }] },
  { name: "sendAt negative", mutate: (cf) => (cf.sendAt = -1), expect: [{ path: "caseFile.sendAt", code: "too_small" }] },
  {
    name: "expireAt before sendAt",
    mutate: (cf) => {
      cf.sendAt = 2_000_000_000;
      cf.expireAt = 1_999_999_999;
    },
    expect: [{ path: "caseFile.expireAt", code: "expire_before_send" }],
  },
  {
    name: "activateCaseFile not a boolean",
    mutate: (cf) => (cf.activateCaseFile = "yes"),
    expect: [{ path: "caseFile.activateCaseFile", code: "invalid_type" }],
  },

  // --- roles ----------------------------------------------------------------------------------
  { name: "signer role of 2 chars", mutate: (cf) => (cf.signers[1].role = "Ma"), expect: [{ path: "caseFile.signers[1].role", code: "too_small" }] },
  {
    name: "signer role with leading whitespace",
    mutate: (cf) => (cf.signers[0].role = " Employee"),
    expect: [{ path: "caseFile.signers[0].role", code: "invalid_format" }],
  },
  {
    name: "signer role with trailing whitespace",
    mutate: (cf) => (cf.signers[0].role = "Employee\t"),
    expect: [{ path: "caseFile.signers[0].role", code: "invalid_format" }],
  },
  {
    name: "document role of 2 chars",
    mutate: (cf) => (cf.documents[0].roles = ["Employee", "Ma"]),
    expect: [{ path: "caseFile.documents[0].roles[1]", code: "too_small" }],
  },
  {
    name: "document role with leading whitespace",
    mutate: (cf) => (cf.documents[0].roles = [" Employee", "Manager"]),
    expect: [{ path: "caseFile.documents[0].roles[0]", code: "invalid_format" }],
  },
  {
    name: "document role with trailing whitespace",
    mutate: (cf) => (cf.documents[0].roles = ["Employee", "Manager "]),
    expect: [{ path: "caseFile.documents[0].roles[1]", code: "invalid_format" }],
  },
  {
    name: "document role that no signer has",
    mutate: (cf) => (cf.documents[0].roles = ["Employee", "Manager", "Auditor"]),
    expect: [{ path: "caseFile.documents[0].roles[2]", code: "role_without_signer" }],
  },

  // --- emails -----------------------------------------------------------------------------------
  {
    name: "invalid signer email",
    mutate: (cf) => (cf.signers[0].email = "alice.example.com"),
    expect: [{ path: "caseFile.signers[0].email", code: "invalid_format" }],
  },
  {
    name: "invalid ccRecipient email",
    mutate: (cf) => (cf.ccRecipients[0].email = "hr@"),
    expect: [{ path: "caseFile.ccRecipients[0].email", code: "invalid_format" }],
  },
  {
    name: "ccRecipient without email",
    mutate: (cf) => delete cf.ccRecipients[0].email,
    expect: [{ path: "caseFile.ccRecipients[0].email", code: "required" }],
  },
  {
    name: "ccRecipient with empty name",
    mutate: (cf) => (cf.ccRecipients[0].name = ""),
    expect: [{ path: "caseFile.ccRecipients[0].name", code: "too_small" }],
  },

  // --- enums ------------------------------------------------------------------------------------
  { name: "case file language outside the list", mutate: (cf) => (cf.language = "es"), expect: [{ path: "caseFile.language", code: "invalid_value" }] },
  {
    name: "signer language outside the list",
    mutate: (cf) => (cf.signers[0].language = "EN"),
    expect: [{ path: "caseFile.signers[0].language", code: "invalid_value" }],
  },
  {
    name: "ssnType outside the list",
    mutate: (cf) => (cf.signers[0].ssnType = "us:ssn"),
    expect: [{ path: "caseFile.signers[0].ssnType", code: "invalid_value" }],
  },
  {
    name: "emailFormat outside the list",
    mutate: (cf) => (cf.signers[0].emailFormat = "markdown"),
    expect: [{ path: "caseFile.signers[0].emailFormat", code: "invalid_value" }],
  },
  {
    name: "channel outside the list",
    mutate: (cf) => (cf.signers[0].channel = "sms"),
    expect: [{ path: "caseFile.signers[0].channel", code: "invalid_value" }],
  },
  {
    name: "insecure signing method outside the list",
    mutate: (cf) => (cf.signers[0].insecureSigningMethods = ["text", "voice"]),
    expect: [{ path: "caseFile.signers[0].insecureSigningMethods[1]", code: "invalid_value" }],
  },
  {
    name: "secure signing method outside the list",
    mutate: (cf) => (cf.signers[1].secureSigningMethods = ["mitid.se"]),
    expect: [{ path: "caseFile.signers[1].secureSigningMethods[0]", code: "invalid_value" }],
  },
  {
    name: "insecure methods without enableInsecureSigning",
    mutate: (cf) => (cf.signers[0].enableInsecureSigning = false),
    expect: [{ path: "caseFile.signers[0].insecureSigningMethods", code: "insecure_signing_disabled" }],
  },

  // --- eboks, cpr, cvr --------------------------------------------------------------------------
  {
    name: "eboks without cpr or cvr",
    mutate: (cf) => (cf.signers[0].channel = "eboks"),
    expect: [{ path: "caseFile.signers[0]", code: "eboks_identifier_required" }],
  },
  {
    name: "eboks with both cpr and cvr",
    mutate: (cf) => Object.assign(cf.signers[0], { channel: "eboks", cpr: "0101701234", cvr: "12345678" }),
    expect: [{ path: "caseFile.signers[0]", code: "cpr_cvr_exclusive" }],
  },
  {
    name: "cpr of 9 digits",
    mutate: (cf) => Object.assign(cf.signers[0], { channel: "eboks", cpr: "010170123" }),
    expect: [{ path: "caseFile.signers[0].cpr", code: "invalid_format" }],
  },
  {
    name: "cpr with a dash",
    mutate: (cf) => Object.assign(cf.signers[0], { channel: "eboks", cpr: "010170-1234" }),
    expect: [{ path: "caseFile.signers[0].cpr", code: "invalid_format" }],
  },
  {
    name: "cvr of 7 digits",
    mutate: (cf) => Object.assign(cf.signers[0], { channel: "eboks", cvr: "1234567" }),
    expect: [{ path: "caseFile.signers[0].cvr", code: "invalid_format" }],
  },
  {
    name: "cvr with a non-alphanumeric suffix",
    mutate: (cf) => Object.assign(cf.signers[0], { channel: "eboks", cvr: "12345678:ab-1" }),
    expect: [{ path: "caseFile.signers[0].cvr", code: "invalid_format" }],
  },
  { name: "cpr on an email signer", mutate: (cf) => (cf.signers[0].cpr = "0101701234"), expect: [{ path: "caseFile.signers[0].cpr", code: "eboks_only" }] },
  {
    name: "cvr on a signer with explicit channel email",
    mutate: (cf) => Object.assign(cf.signers[1], { channel: "email", cvr: "12345678" }),
    expect: [{ path: "caseFile.signers[1].cvr", code: "eboks_only" }],
  },

  // --- urls and texts ---------------------------------------------------------------------------
  {
    name: "successUrl not a URI",
    mutate: (cf) => (cf.signers[0].successUrl = "not a url"),
    expect: [{ path: "caseFile.signers[0].successUrl", code: "invalid_format" }],
  },
  {
    name: "successUrl shorter than 5",
    mutate: (cf) => (cf.signers[0].successUrl = "a:b"),
    expect: [{ path: "caseFile.signers[0].successUrl", code: "too_small" }],
  },
  {
    name: "successUrl with a javascript: scheme",
    mutate: (cf) => (cf.signers[0].successUrl = "javascript:alert(1)"),
    expect: [{ path: "caseFile.signers[0].successUrl", code: "invalid_format" }],
  },
  { name: "failUrl not a URI", mutate: (cf) => (cf.signers[1].failUrl = "://nope"), expect: [{ path: "caseFile.signers[1].failUrl", code: "invalid_format" }] },
  { name: "failUrl shorter than 5", mutate: (cf) => (cf.signers[1].failUrl = "x:y"), expect: [{ path: "caseFile.signers[1].failUrl", code: "too_small" }] },
  ...(["emailSubject", "emailText", "reminderEmailSubject", "reminderEmailText", "completedEmailSubject", "completedEmailText"] as const).map(
    (field): Row => ({
      name: `${field} shorter than 5`,
      mutate: (cf) => (cf.signers[0][field] = "Hey!"),
      expect: [{ path: `caseFile.signers[0].${field}`, code: "too_small" }],
    }),
  ),
  {
    name: "reminderInterval 0",
    mutate: (cf) => (cf.signers[0].reminderInterval = 0),
    expect: [{ path: "caseFile.signers[0].reminderInterval", code: "too_small" }],
  },
  { name: "signOrder -1", mutate: (cf) => (cf.signers[1].signOrder = -1), expect: [{ path: "caseFile.signers[1].signOrder", code: "too_small" }] },
  { name: "signOrder as a string", mutate: (cf) => (cf.signers[1].signOrder = "1"), expect: [{ path: "caseFile.signers[1].signOrder", code: "invalid_type" }] },
  {
    name: "documentOrder -1",
    mutate: (cf) => (cf.documents[0].documentOrder = -1),
    expect: [{ path: "caseFile.documents[0].documentOrder", code: "too_small" }],
  },

  // --- documents and uploaded files ---------------------------------------------------------------
  {
    name: "document name with no uploaded file",
    files: ["contract.pdf"],
    expect: [{ path: "caseFile.documents[1].name", code: "document_file_missing" }],
  },
  {
    name: "uploaded file that matches no document",
    files: ["contract.pdf", "appendix.pdf", "extra.pdf"],
    expect: [{ path: "files[2]", code: "file_unmatched" }],
  },
  {
    name: "duplicate document names",
    mutate: (cf) => (cf.documents[1].name = "contract.pdf"),
    files: ["contract.pdf"],
    expect: [{ path: "caseFile.documents[1].name", code: "duplicate_name" }],
  },
  {
    name: "duplicate uploaded file names",
    files: ["contract.pdf", "appendix.pdf", "contract.pdf"],
    expect: [{ path: "files[2]", code: "duplicate_file" }],
  },
  {
    name: "empty document name",
    mutate: (cf) => (cf.documents[1].name = ""),
    files: ["contract.pdf"],
    expect: [{ path: "caseFile.documents[1].name", code: "too_small" }],
  },
  {
    name: "no signable document",
    mutate: (cf) => (cf.documents[0].signable = false),
    expect: [{ path: "caseFile.documents", code: "no_signable_document" }],
  },
  {
    name: "a signer no signable document is meant for",
    mutate: (cf) => (cf.documents[0].roles = ["Employee"]),
    expect: [{ path: "caseFile.signers[1].role", code: "signer_without_document" }],
  },

  // --- unknown properties ---------------------------------------------------------------------
  { name: "unknown case file property", mutate: (cf) => (cf.colour = "blue"), expect: [{ path: "caseFile.colour", code: "unrecognized_key" }] },
  {
    name: "unknown signer property",
    mutate: (cf) => (cf.signers[1].phone = "+4512345678"),
    expect: [{ path: "caseFile.signers[1].phone", code: "unrecognized_key" }],
  },
  {
    name: "unknown document property",
    mutate: (cf) => (cf.documents[0].pages = 3),
    expect: [{ path: "caseFile.documents[0].pages", code: "unrecognized_key" }],
  },
  {
    name: "unknown ccRecipient property",
    mutate: (cf) => (cf.ccRecipients[0].cc = true),
    expect: [{ path: "caseFile.ccRecipients[0].cc", code: "unrecognized_key" }],
  },
  { name: "unknown root property", mutate: (_cf, data) => (data.version = 2), expect: [{ path: "version", code: "unrecognized_key" }] },
];

let system: System;
let storageDir: string;
let token: string;
let customerId: number;
let pdfs: Record<string, Buffer>;
const rejectedContents: Buffer[] = [];

beforeAll(async () => {
  storageDir = ownStorageDir("create-validation");
  system = await startSystem([], { STORAGE_DIR: storageDir, QUEUE_PREFIX: ownQueuePrefix("create-validation") });
  const creds = await newCustomer();
  customerId = creds.customerId;
  token = await getToken(system.gateway.url, creds);
  const [contract, appendix, extra] = await Promise.all([
    makePdf("create-validation rejected contract"),
    makePdf("create-validation rejected appendix", 2),
    makePdf("create-validation rejected extra"),
  ]);
  pdfs = { "contract.pdf": contract!, "appendix.pdf": appendix!, "extra.pdf": extra! };
  rejectedContents.push(contract!, appendix!, extra!);
});

afterAll(async () => {
  await system?.stop();
  // No worker here: remove the accepted job so no other file's pending-job sweeper ever picks it up.
  if (customerId !== undefined) await testDb().creationJob.deleteMany({ where: { customerId } });
  await closeTestDb();
});

function upload(names: string[]): UploadFile[] {
  return names.map((name) => ({ name, content: pdfs[name]! }));
}

function payload(row: Pick<Row, "mutate">): unknown {
  const data: Loose = structuredClone(validCaseFile());
  row.mutate?.(data.caseFile, data);
  return data;
}

describe("create validation: one invalid request per rule", () => {
  it.each(rows.map((r) => [r.name, r] as const))("rejects %s with 400 validation_failed", async (_name, row) => {
    const res = await postCreate(system.gateway.url, token, payload(row), upload(row.files ?? ["contract.pdf", "appendix.pdf"]));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_failed");
    expect(res.body.statusCode).toBe(400);
    expect(typeof res.body.message).toBe("string");
    const errors = res.body.errors ?? [];
    for (const e of errors) {
      expect(e).toEqual({ path: expect.any(String), code: expect.any(String), message: expect.any(String) });
      expect(e.message.length).toBeGreaterThan(0);
    }
    for (const want of row.expect) {
      const matching = errors.filter((e) => e.path === want.path && (want.code === undefined || e.code === want.code));
      if (matching.length === 0) throw new Error(`no error ${JSON.stringify(want)} in ${JSON.stringify(errors)}`);
    }
    // Never more than one entry for the same field and problem.
    const keys = errors.map((e) => `${e.path} ${e.code}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("lists every failing field of a payload with many problems", async () => {
    const data = payload({
      mutate: (cf) => {
        cf.title = "";
        cf.language = "xx";
        cf.senderName = "A";
        cf.folderId = 0;
        cf.visibilityMode = 2;
        cf.extra = true;
        cf.signers[0].email = "bad";
        cf.signers[0].reminderInterval = 0;
        cf.signers[0].successUrl = "nope";
        cf.signers[1].signOrder = -1;
        cf.signers[1].emailFormat = "pdf";
        cf.signers[1].channel = "eboks";
        cf.documents[1].name = "missing.pdf";
        cf.ccRecipients[0].email = "bad";
      },
    });
    const res = await postCreate(system.gateway.url, token, data, upload(["contract.pdf", "appendix.pdf"]));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_failed");
    const paths = [...new Set((res.body.errors ?? []).map((e) => e.path))].sort();
    expect(paths).toEqual(
      [
        "caseFile.title",
        "caseFile.language",
        "caseFile.senderName",
        "caseFile.folderId",
        "caseFile.visibilityMode",
        "caseFile.extra",
        "caseFile.signers[0].email",
        "caseFile.signers[0].reminderInterval",
        "caseFile.signers[0].successUrl",
        "caseFile.signers[1].signOrder",
        "caseFile.signers[1].emailFormat",
        "caseFile.signers[1]",
        "caseFile.documents[1].name",
        "files[1]",
        "caseFile.ccRecipients[0].email",
      ].sort(),
    );
  });

  it("left no trace of any rejected request: no job rows, no staged or stored files", async () => {
    expect(await testDb().creationJob.count({ where: { customerId } })).toBe(0);
    expect(stagingEntries(storageDir)).toEqual([]);
    for (const content of rejectedContents) expect(isStored(storageDir, content)).toBe(false);
  });

  it("accepts the unmodified base payload on the same gateway (the rows fail for their one change)", async () => {
    const [contract, appendix] = await Promise.all([makePdf("create-validation accepted contract"), makePdf("create-validation accepted appendix")]);
    const res = await postCreate(system.gateway.url, token, validCaseFile(), [
      { name: "contract.pdf", content: contract! },
      { name: "appendix.pdf", content: appendix! },
    ]);
    expect(res.status).toBe(200);
    expect(await testDb().creationJob.count({ where: { customerId } })).toBe(1);
    expect(isStored(storageDir, contract!)).toBe(true);
    expect(stagingEntries(storageDir)).toEqual([]);
  });
});
