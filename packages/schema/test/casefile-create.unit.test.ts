import { formatPath, validateCreateRequest, type FieldError, type TCaseFileCreateData } from "../src/casefile-create";
import { LANGUAGES, SECURE_SIGNING_METHODS } from "../src/enums";

/*
 * Every case starts from one valid request and changes as little as possible, so a failing case
 * points at exactly one rule.
 */
const BASE = {
  caseFile: {
    title: "Employment contract",
    signers: [
      { name: "Alice Andersen", email: "alice@example.com", role: "Employee" },
      { name: "Bob Berg", email: "bob@example.com", role: "Manager" },
    ],
    documents: [
      { title: "Contract", name: "contract.pdf" },
      { title: "Appendix", name: "appendix.pdf", signable: false },
    ],
  },
};
const FILES: readonly string[] = ["contract.pdf", "appendix.pdf"];

const DEL = Symbol("delete");
type Edit = readonly [path: string, value: unknown];

const CF = "caseFile";
const S0 = "caseFile.signers[0]";
const S1 = "caseFile.signers[1]";
const D0 = "caseFile.documents[0]";
const D1 = "caseFile.documents[1]";
const CC0 = "caseFile.ccRecipients[0]";
const WITH_CC: Edit = [`${CF}.ccRecipients`, [{ name: "Carol Carlsen", email: "carol@example.com" }]];
const EBOKS: Edit = [`${S0}.channel`, "eboks"];

function parsePath(path: string): Array<string | number> {
  return (path.match(/[^.[\]]+/g) ?? []).map((token) => (/^\d+$/.test(token) ? Number(token) : token));
}

function isContainer(value: unknown): value is Record<string | number, unknown> {
  return typeof value === "object" && value !== null;
}

function applyEdits(edits: readonly Edit[]): unknown {
  const root: unknown = structuredClone(BASE);
  for (const [path, value] of edits) {
    const keys = parsePath(path);
    const last = keys.pop();
    let target: unknown = root;
    for (const key of keys) target = isContainer(target) ? target[key] : undefined;
    if (!isContainer(target) || last === undefined) throw new Error(`bad edit path ${path}`);
    if (value === DEL) delete target[last];
    else target[last] = structuredClone(value);
  }
  return root;
}

interface Request {
  edits?: readonly Edit[];
  files?: readonly string[];
  /** Raw `data` part, bypassing the payload edits. */
  data?: string;
}

function run(req: Request) {
  const data = req.data ?? JSON.stringify(applyEdits(req.edits ?? []));
  return validateCreateRequest(data, req.files ?? FILES);
}

function errorsOf(req: Request): FieldError[] {
  const result = run(req);
  if (result.ok) throw new Error("expected the request to be rejected");
  return result.errors;
}

function valueOf(req: Request): TCaseFileCreateData {
  const result = run(req);
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.errors)}`);
  return result.value;
}

interface InvalidCase extends Request {
  name: string;
  expect: ReadonlyArray<readonly [path: string, code: string]>;
}

const long = (n: number): string => "x".repeat(n);

const invalidCases: InvalidCase[] = [
  // --- the data part and the root object
  { name: "data is not JSON", data: "{caseFile:", expect: [["data", "invalid_json"]] },
  { name: "data is an empty string", data: "", expect: [["data", "invalid_json"]] },
  { name: "data is a JSON array", data: "[]", expect: [["data", "invalid_type"]] },
  { name: "data is JSON null", data: "null", expect: [["data", "invalid_type"]] },
  { name: "data is a JSON string", data: '"caseFile"', expect: [["data", "invalid_type"]] },
  { name: "caseFile missing", data: "{}", expect: [["caseFile", "required"]] },
  { name: "caseFile not an object", edits: [[CF, "x"]], expect: [["caseFile", "invalid_type"]] },
  { name: "caseFile is an array", edits: [[CF, []]], expect: [["caseFile", "invalid_type"]] },
  { name: "unknown root property", edits: [["extra", 1]], expect: [["extra", "unrecognized_key"]] },

  // --- caseFile fields
  { name: "title missing", edits: [[`${CF}.title`, DEL]], expect: [[`${CF}.title`, "required"]] },
  { name: "title empty", edits: [[`${CF}.title`, ""]], expect: [[`${CF}.title`, "too_small"]] },
  { name: "title too long", edits: [[`${CF}.title`, long(1025)]], expect: [[`${CF}.title`, "too_big"]] },
  { name: "title not a string", edits: [[`${CF}.title`, 7]], expect: [[`${CF}.title`, "invalid_type"]] },
  { name: "signers missing", edits: [[`${CF}.signers`, DEL]], expect: [[`${CF}.signers`, "required"]] },
  { name: "signers empty", edits: [[`${CF}.signers`, []]], expect: [[`${CF}.signers`, "too_small"]] },
  { name: "signers not an array", edits: [[`${CF}.signers`, {}]], expect: [[`${CF}.signers`, "invalid_type"]] },
  { name: "signer not an object", edits: [[S0, "Alice"]], expect: [[S0, "invalid_type"]] },
  { name: "documents missing", edits: [[`${CF}.documents`, DEL]], expect: [[`${CF}.documents`, "required"]] },
  { name: "documents empty", edits: [[`${CF}.documents`, []]], expect: [[`${CF}.documents`, "too_small"]] },
  {
    name: "no signable document",
    edits: [[`${D0}.signable`, false]],
    expect: [[`${CF}.documents`, "no_signable_document"]],
  },
  { name: "activateCaseFile not boolean", edits: [[`${CF}.activateCaseFile`, "yes"]], expect: [[`${CF}.activateCaseFile`, "invalid_type"]] },
  { name: "ccRecipients not an array", edits: [[`${CF}.ccRecipients`, {}]], expect: [[`${CF}.ccRecipients`, "invalid_type"]] },
  { name: "language unknown", edits: [[`${CF}.language`, "xx"]], expect: [[`${CF}.language`, "invalid_value"]] },
  { name: "language wrong case", edits: [[`${CF}.language`, "EN"]], expect: [[`${CF}.language`, "invalid_value"]] },
  { name: "metaData not a string", edits: [[`${CF}.metaData`, 5]], expect: [[`${CF}.metaData`, "invalid_type"]] },
  { name: "reference not a string", edits: [[`${CF}.reference`, 5]], expect: [[`${CF}.reference`, "invalid_type"]] },
  { name: "folderId 0", edits: [[`${CF}.folderId`, 0]], expect: [[`${CF}.folderId`, "too_small"]] },
  { name: "folderId fractional", edits: [[`${CF}.folderId`, 1.5]], expect: [[`${CF}.folderId`, "invalid_type"]] },
  { name: "folderId a string", edits: [[`${CF}.folderId`, "3"]], expect: [[`${CF}.folderId`, "invalid_type"]] },
  { name: "sendAt negative", edits: [[`${CF}.sendAt`, -1]], expect: [[`${CF}.sendAt`, "too_small"]] },
  { name: "sendAt fractional", edits: [[`${CF}.sendAt`, 1.5]], expect: [[`${CF}.sendAt`, "invalid_type"]] },
  { name: "sendAt beyond safe integers", edits: [[`${CF}.sendAt`, 1e300]], expect: [[`${CF}.sendAt`, "too_big"]] },
  { name: "expireAt a string", edits: [[`${CF}.expireAt`, "tomorrow"]], expect: [[`${CF}.expireAt`, "invalid_type"]] },
  { name: "expireAt negative", edits: [[`${CF}.expireAt`, -1]], expect: [[`${CF}.expireAt`, "too_small"]] },
  {
    name: "expireAt before sendAt",
    edits: [
      [`${CF}.sendAt`, 1_900_000_000],
      [`${CF}.expireAt`, 1_800_000_000],
    ],
    expect: [[`${CF}.expireAt`, "expire_before_send"]],
  },
  {
    name: "expireAt equal to sendAt",
    edits: [
      [`${CF}.sendAt`, 1_900_000_000],
      [`${CF}.expireAt`, 1_900_000_000],
    ],
    expect: [[`${CF}.expireAt`, "expire_before_send"]],
  },
  { name: "sensitiveData a string", edits: [[`${CF}.sensitiveData`, "true"]], expect: [[`${CF}.sensitiveData`, "invalid_type"]] },
  { name: "visibilityMode 2", edits: [[`${CF}.visibilityMode`, 2]], expect: [[`${CF}.visibilityMode`, "invalid_value"]] },
  { name: "visibilityMode as string", edits: [[`${CF}.visibilityMode`, "1"]], expect: [[`${CF}.visibilityMode`, "invalid_value"]] },
  {
    name: "disableNotificationsOwner a number",
    edits: [[`${CF}.disableNotificationsOwner`, 1]],
    expect: [[`${CF}.disableNotificationsOwner`, "invalid_type"]],
  },
  {
    name: "disableEmailAttachments null",
    edits: [[`${CF}.disableEmailAttachments`, null]],
    expect: [[`${CF}.disableEmailAttachments`, "invalid_type"]],
  },
  { name: "senderName 1 char", edits: [[`${CF}.senderName`, "A"]], expect: [[`${CF}.senderName`, "too_small"]] },
  { name: "senderName too long", edits: [[`${CF}.senderName`, long(256)]], expect: [[`${CF}.senderName`, "too_big"]] },
  { name: "senderName a number", edits: [[`${CF}.senderName`, 42]], expect: [[`${CF}.senderName`, "invalid_type"]] },
  { name: "signOnMeeting a string", edits: [[`${CF}.signOnMeeting`, "no"]], expect: [[`${CF}.signOnMeeting`, "invalid_type"]] },
  { name: "unknown caseFile property", edits: [[`${CF}.owner`, "x"]], expect: [[`${CF}.owner`, "unrecognized_key"]] },

  // --- signer fields
  { name: "signer name missing", edits: [[`${S0}.name`, DEL]], expect: [[`${S0}.name`, "required"]] },
  { name: "signer name empty", edits: [[`${S0}.name`, ""]], expect: [[`${S0}.name`, "too_small"]] },
  { name: "signer email invalid", edits: [[`${S0}.email`, "not-an-email"]], expect: [[`${S0}.email`, "invalid_format"]] },
  { name: "signer email without domain", edits: [[`${S0}.email`, "a@b"]], expect: [[`${S0}.email`, "invalid_format"]] },
  { name: "signer channel unknown", edits: [[`${S0}.channel`, "sms"]], expect: [[`${S0}.channel`, "invalid_value"]] },
  { name: "cpr too short", edits: [EBOKS, [`${S0}.cpr`, "123456789"]], expect: [[`${S0}.cpr`, "invalid_format"]] },
  { name: "cpr too long", edits: [EBOKS, [`${S0}.cpr`, "12345678901"]], expect: [[`${S0}.cpr`, "invalid_format"]] },
  { name: "cpr with letters", edits: [EBOKS, [`${S0}.cpr`, "12345abcde"]], expect: [[`${S0}.cpr`, "invalid_format"]] },
  { name: "cpr with dash", edits: [EBOKS, [`${S0}.cpr`, "010190-1234"]], expect: [[`${S0}.cpr`, "invalid_format"]] },
  { name: "cvr 7 digits", edits: [EBOKS, [`${S0}.cvr`, "1234567"]], expect: [[`${S0}.cvr`, "invalid_format"]] },
  { name: "cvr empty suffix", edits: [EBOKS, [`${S0}.cvr`, "12345678:"]], expect: [[`${S0}.cvr`, "invalid_format"]] },
  { name: "cvr non-alphanumeric suffix", edits: [EBOKS, [`${S0}.cvr`, "12345678:ab-c"]], expect: [[`${S0}.cvr`, "invalid_format"]] },
  { name: "eboks without cpr or cvr", edits: [EBOKS], expect: [[S0, "eboks_identifier_required"]] },
  {
    name: "eboks with cpr and cvr",
    edits: [EBOKS, [`${S0}.cpr`, "0101901234"], [`${S0}.cvr`, "12345678"]],
    expect: [[S0, "cpr_cvr_exclusive"]],
  },
  {
    name: "cpr and cvr together without eboks",
    edits: [
      [`${S0}.cpr`, "0101901234"],
      [`${S0}.cvr`, "12345678"],
    ],
    expect: [
      [S0, "cpr_cvr_exclusive"],
      [`${S0}.cpr`, "eboks_only"],
      [`${S0}.cvr`, "eboks_only"],
    ],
  },
  {
    name: "cpr with channel email",
    edits: [
      [`${S0}.channel`, "email"],
      [`${S0}.cpr`, "0101901234"],
    ],
    expect: [[`${S0}.cpr`, "eboks_only"]],
  },
  { name: "cvr with channel omitted", edits: [[`${S0}.cvr`, "12345678"]], expect: [[`${S0}.cvr`, "eboks_only"]] },
  {
    name: "socialSecurityNumberPlain a number",
    edits: [[`${S0}.socialSecurityNumberPlain`, 123]],
    expect: [[`${S0}.socialSecurityNumberPlain`, "invalid_type"]],
  },
  { name: "vatin a number", edits: [[`${S0}.vatin`, 5]], expect: [[`${S0}.vatin`, "invalid_type"]] },
  { name: "signer role 2 chars", edits: [[`${S0}.role`, "ab"]], expect: [[`${S0}.role`, "too_small"]] },
  { name: "signer role empty", edits: [[`${S0}.role`, ""]], expect: [[`${S0}.role`, "too_small"]] },
  { name: "signer role leading space", edits: [[`${S0}.role`, " Employee"]], expect: [[`${S0}.role`, "invalid_format"]] },
  { name: "signer role trailing newline", edits: [[`${S0}.role`, "Employee\n"]], expect: [[`${S0}.role`, "invalid_format"]] },
  { name: "signer role a number", edits: [[`${S0}.role`, 5]], expect: [[`${S0}.role`, "invalid_type"]] },
  { name: "onBehalfOf a number", edits: [[`${S0}.onBehalfOf`, 5]], expect: [[`${S0}.onBehalfOf`, "invalid_type"]] },
  { name: "signOrder negative", edits: [[`${S0}.signOrder`, -1]], expect: [[`${S0}.signOrder`, "too_small"]] },
  { name: "signOrder fractional", edits: [[`${S0}.signOrder`, 0.5]], expect: [[`${S0}.signOrder`, "invalid_type"]] },
  { name: "ssnType unknown", edits: [[`${S0}.ssnType`, "dk:xyz"]], expect: [[`${S0}.ssnType`, "invalid_value"]] },
  { name: "accessControl a string", edits: [[`${S0}.accessControl`, "yes"]], expect: [[`${S0}.accessControl`, "invalid_type"]] },
  { name: "successUrl not a URI", edits: [[`${S0}.successUrl`, "not a url"]], expect: [[`${S0}.successUrl`, "invalid_format"]] },
  { name: "successUrl javascript scheme", edits: [[`${S0}.successUrl`, "javascript:alert(1)"]], expect: [[`${S0}.successUrl`, "invalid_format"]] },
  { name: "failUrl shorter than 5", edits: [[`${S0}.failUrl`, "a:b"]], expect: [[`${S0}.failUrl`, "too_small"]] },
  { name: "failUrl not a URI", edits: [[`${S0}.failUrl`, "http://"]], expect: [[`${S0}.failUrl`, "invalid_format"]] },
  { name: "signer language unknown", edits: [[`${S0}.language`, "se"]], expect: [[`${S0}.language`, "invalid_value"]] },
  { name: "emailFormat unknown", edits: [[`${S0}.emailFormat`, "markdown"]], expect: [[`${S0}.emailFormat`, "invalid_value"]] },
  ...(["emailSubject", "emailText", "reminderEmailSubject", "reminderEmailText", "completedEmailSubject", "completedEmailText"] as const).map(
    (field): InvalidCase => ({
      name: `${field} shorter than 5`,
      edits: [[`${S0}.${field}`, "abcd"]],
      expect: [[`${S0}.${field}`, "too_small"]],
    }),
  ),
  { name: "reminderInterval 0", edits: [[`${S0}.reminderInterval`, 0]], expect: [[`${S0}.reminderInterval`, "too_small"]] },
  { name: "reminderInterval a string", edits: [[`${S0}.reminderInterval`, "7"]], expect: [[`${S0}.reminderInterval`, "invalid_type"]] },
  { name: "signer activeAt negative", edits: [[`${S0}.activeAt`, -5]], expect: [[`${S0}.activeAt`, "too_small"]] },
  { name: "signer expireAt fractional", edits: [[`${S0}.expireAt`, 1.25]], expect: [[`${S0}.expireAt`, "invalid_type"]] },
  {
    name: "signer expireAt before activeAt",
    edits: [
      [`${S0}.activeAt`, 1_900_000_000],
      [`${S0}.expireAt`, 1_899_999_999],
    ],
    expect: [[`${S0}.expireAt`, "expire_before_active"]],
  },
  {
    name: "enableInsecureSigning a string",
    edits: [[`${S0}.enableInsecureSigning`, "true"]],
    expect: [[`${S0}.enableInsecureSigning`, "invalid_type"]],
  },
  {
    name: "insecure methods without enableInsecureSigning",
    edits: [[`${S0}.insecureSigningMethods`, ["text"]]],
    expect: [[`${S0}.insecureSigningMethods`, "insecure_signing_disabled"]],
  },
  {
    name: "insecure methods with enableInsecureSigning false",
    edits: [
      [`${S0}.enableInsecureSigning`, false],
      [`${S0}.insecureSigningMethods`, ["draw"]],
    ],
    expect: [[`${S0}.insecureSigningMethods`, "insecure_signing_disabled"]],
  },
  {
    name: "insecure method unknown",
    edits: [
      [`${S0}.enableInsecureSigning`, true],
      [`${S0}.insecureSigningMethods`, ["pen"]],
    ],
    expect: [[`${S0}.insecureSigningMethods[0]`, "invalid_value"]],
  },
  {
    name: "insecure method duplicated",
    edits: [
      [`${S0}.enableInsecureSigning`, true],
      [`${S0}.insecureSigningMethods`, ["text", "draw", "text"]],
    ],
    expect: [[`${S0}.insecureSigningMethods[2]`, "duplicate_value"]],
  },
  {
    name: "insecureSigningMethods not an array",
    edits: [
      [`${S0}.enableInsecureSigning`, true],
      [`${S0}.insecureSigningMethods`, "text"],
    ],
    expect: [[`${S0}.insecureSigningMethods`, "invalid_type"]],
  },
  { name: "secure method unknown", edits: [[`${S0}.secureSigningMethods`, ["mitid"]]], expect: [[`${S0}.secureSigningMethods[0]`, "invalid_value"]] },
  {
    name: "secure method duplicated",
    edits: [[`${S0}.secureSigningMethods`, ["mitid.dk", "mitid.dk"]]],
    expect: [[`${S0}.secureSigningMethods[1]`, "duplicate_value"]],
  },
  { name: "signer storeAsContact a string", edits: [[`${S0}.storeAsContact`, "x"]], expect: [[`${S0}.storeAsContact`, "invalid_type"]] },
  { name: "unknown signer property", edits: [[`${S0}.phone`, "+4512345678"]], expect: [[`${S0}.phone`, "unrecognized_key"]] },
  // Numbers past what their columns (PostgreSQL integer, a timestamp) hold are refused here, not by the database.
  { name: "signOrder past int4", edits: [[`${S0}.signOrder`, 2 ** 31]], expect: [[`${S0}.signOrder`, "too_big"]] },
  { name: "activeAt past year 9999", edits: [[`${S0}.activeAt`, 253_402_300_800]], expect: [[`${S0}.activeAt`, "too_big"]] },

  // --- document fields
  { name: "document title missing", edits: [[`${D0}.title`, DEL]], expect: [[`${D0}.title`, "required"]] },
  { name: "document title empty", edits: [[`${D0}.title`, ""]], expect: [[`${D0}.title`, "too_small"]] },
  { name: "document title too long", edits: [[`${D0}.title`, long(1025)]], expect: [[`${D0}.title`, "too_big"]] },
  {
    name: "document name missing",
    edits: [[`${D0}.name`, DEL]],
    expect: [
      [`${D0}.name`, "required"],
      ["files[0]", "file_unmatched"],
    ],
  },
  { name: "document name empty", edits: [[`${D0}.name`, ""]], expect: [[`${D0}.name`, "too_small"]] },
  {
    name: "document not an object",
    edits: [[D1, "appendix.pdf"]],
    expect: [
      [D1, "invalid_type"],
      ["files[1]", "file_unmatched"],
    ],
  },
  { name: "document signable a string", edits: [[`${D0}.signable`, "no"]], expect: [[`${D0}.signable`, "invalid_type"]] },
  { name: "document roles not an array", edits: [[`${D0}.roles`, "Employee"]], expect: [[`${D0}.roles`, "invalid_type"]] },
  { name: "document role 2 chars", edits: [[`${D0}.roles`, ["Employee", "ab"]]], expect: [[`${D0}.roles[1]`, "too_small"]] },
  { name: "document role trailing space", edits: [[`${D0}.roles`, ["Employee "]]], expect: [[`${D0}.roles[0]`, "invalid_format"]] },
  { name: "document role a number", edits: [[`${D0}.roles`, [3]]], expect: [[`${D0}.roles[0]`, "invalid_type"]] },
  { name: "documentOrder negative", edits: [[`${D0}.documentOrder`, -1]], expect: [[`${D0}.documentOrder`, "too_small"]] },
  { name: "documentOrder fractional", edits: [[`${D0}.documentOrder`, 2.5]], expect: [[`${D0}.documentOrder`, "invalid_type"]] },
  { name: "document metaData a number", edits: [[`${D0}.metaData`, 1]], expect: [[`${D0}.metaData`, "invalid_type"]] },
  { name: "unknown document property", edits: [[`${D0}.file`, "x"]], expect: [[`${D0}.file`, "unrecognized_key"]] },

  // --- documents against uploaded files
  {
    name: "document name has no uploaded file",
    files: ["contract.pdf"],
    expect: [[`${D1}.name`, "document_file_missing"]],
  },
  {
    name: "document name differs in case from the file",
    files: ["Contract.pdf", "appendix.pdf"],
    expect: [
      [`${D0}.name`, "document_file_missing"],
      ["files[0]", "file_unmatched"],
    ],
  },
  { name: "uploaded file matches no document", files: [...FILES, "extra.pdf"], expect: [["files[2]", "file_unmatched"]] },
  { name: "uploaded file name repeated", files: [...FILES, "contract.pdf"], expect: [["files[2]", "duplicate_file"]] },
  {
    name: "no files uploaded",
    files: [],
    expect: [
      ["files", "required"],
      [`${D0}.name`, "document_file_missing"],
      [`${D1}.name`, "document_file_missing"],
    ],
  },
  {
    name: "duplicate document names",
    edits: [[`${D1}.name`, "contract.pdf"]],
    files: ["contract.pdf"],
    expect: [[`${D1}.name`, "duplicate_name"]],
  },

  // --- roles across signers and documents
  {
    name: "document role that no signer has",
    edits: [[`${D0}.roles`, ["Employee", "Ghost"]]],
    expect: [[`${D0}.roles[1]`, "role_without_signer"]],
  },
  {
    name: "document role only matching the default role when signers set roles",
    edits: [[`${D0}.roles`, ["Signer"]]],
    expect: [[`${D0}.roles[0]`, "role_without_signer"]],
  },
  {
    name: "signer whose role no signable document lists",
    edits: [[`${D0}.roles`, ["Employee"]]],
    expect: [[`${S1}.role`, "signer_without_document"]],
  },
  {
    name: "signer role only on a non-signable document",
    edits: [
      [`${D0}.roles`, ["Employee"]],
      [`${D1}.roles`, ["Manager"]],
    ],
    expect: [[`${S1}.role`, "signer_without_document"]],
  },
  {
    name: "signer with the default role when documents carry roles",
    edits: [
      [`${S1}.role`, DEL],
      [`${D0}.roles`, ["Employee"]],
    ],
    expect: [[`${S1}.role`, "signer_without_document"]],
  },

  // --- ccRecipient fields
  { name: "cc name missing", edits: [WITH_CC, [`${CC0}.name`, DEL]], expect: [[`${CC0}.name`, "required"]] },
  { name: "cc name empty", edits: [WITH_CC, [`${CC0}.name`, ""]], expect: [[`${CC0}.name`, "too_small"]] },
  { name: "cc email missing", edits: [WITH_CC, [`${CC0}.email`, DEL]], expect: [[`${CC0}.email`, "required"]] },
  { name: "cc email invalid", edits: [WITH_CC, [`${CC0}.email`, "carol@"]], expect: [[`${CC0}.email`, "invalid_format"]] },
  { name: "cc storeAsContact a string", edits: [WITH_CC, [`${CC0}.storeAsContact`, "x"]], expect: [[`${CC0}.storeAsContact`, "invalid_type"]] },
  { name: "unknown cc property", edits: [WITH_CC, [`${CC0}.phone`, "1"]], expect: [[`${CC0}.phone`, "unrecognized_key"]] },
];

describe("validateCreateRequest: the valid base payload", () => {
  it("accepts the base payload", () => {
    expect(run({}).ok).toBe(true);
  });
});

describe("validateCreateRequest: invalid requests", () => {
  it.each(invalidCases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const errors = errorsOf(c);
    for (const [path, code] of c.expect) {
      expect(errors).toContainEqual(expect.objectContaining({ path, code }));
    }
    for (const e of errors) {
      expect(typeof e.message).toBe("string");
      expect(e.message.length).toBeGreaterThan(0);
    }
  });
});

describe("validateCreateRequest: several problems at once", () => {
  it("reports every per-field and cross-field problem in one answer", () => {
    const errors = errorsOf({
      edits: [
        [`${CF}.title`, DEL],
        [`${CF}.sendAt`, 2_000_000_000],
        [`${CF}.expireAt`, 1_000_000_000],
        [`${CF}.language`, "xx"],
        [`${CF}.bogus`, true],
        [`${S0}.email`, "nope"],
        [`${S0}.role`, "ab"],
        [`${S1}.channel`, "eboks"],
        [`${S1}.insecureSigningMethods`, ["text", "text"]],
        [`${D0}.roles`, ["Ghost"]],
        [`${D1}.name`, "missing.pdf"],
      ],
      files: ["contract.pdf", "stray.pdf", "stray.pdf"],
    });
    const expected: Array<[string, string]> = [
      [`${CF}.title`, "required"],
      [`${CF}.expireAt`, "expire_before_send"],
      [`${CF}.language`, "invalid_value"],
      [`${CF}.bogus`, "unrecognized_key"],
      [`${S0}.email`, "invalid_format"],
      [`${S0}.role`, "too_small"],
      [S1, "eboks_identifier_required"],
      [`${S1}.insecureSigningMethods`, "insecure_signing_disabled"],
      [`${S1}.insecureSigningMethods[1]`, "duplicate_value"],
      [`${D0}.roles[0]`, "role_without_signer"],
      [`${D1}.name`, "document_file_missing"],
      ["files[1]", "file_unmatched"],
      ["files[2]", "duplicate_file"],
    ];
    for (const [path, code] of expected) {
      expect(errors).toContainEqual(expect.objectContaining({ path, code }));
    }
  });

  it("still runs the cross-field rules when the caseFile is otherwise broken", () => {
    const errors = errorsOf({
      edits: [
        [`${CF}.title`, 5],
        [`${CF}.visibilityMode`, 3],
        [`${S0}.cpr`, "0101901234"],
        [`${D0}.signable`, false],
      ],
      files: ["contract.pdf", "appendix.pdf", "contract.pdf"],
    });
    for (const [path, code] of [
      [`${CF}.title`, "invalid_type"],
      [`${CF}.visibilityMode`, "invalid_value"],
      [`${S0}.cpr`, "eboks_only"],
      [`${CF}.documents`, "no_signable_document"],
      ["files[2]", "duplicate_file"],
    ] as const) {
      expect(errors).toContainEqual(expect.objectContaining({ path, code }));
    }
  });

  it("lists one error per unknown property and never the same path and code twice", () => {
    const errors = errorsOf({
      edits: [
        [`${S0}.a`, 1],
        [`${S0}.b`, 2],
      ],
    });
    expect(errors.filter((e) => e.code === "unrecognized_key").map((e) => e.path)).toEqual([`${S0}.a`, `${S0}.b`]);
    const keys = errors.map((e) => `${e.path} ${e.code}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("validateCreateRequest: messages", () => {
  const messageAt = (req: Request, path: string): string | undefined => errorsOf(req).find((e) => e.path === path)?.message;

  it("names the missing property", () => {
    expect(messageAt({ edits: [[`${CF}.title`, DEL]] }, `${CF}.title`)).toMatch(/title/);
    expect(messageAt({ data: "{}" }, "caseFile")).toMatch(/caseFile/);
  });
  it("lists the allowed values of an enum", () => {
    expect(messageAt({ edits: [[`${CF}.language`, "xx"]] }, `${CF}.language`)).toBe(`must be one of ${LANGUAGES.join(", ")}`);
  });
  it("states string bounds in characters", () => {
    expect(messageAt({ edits: [[`${S0}.role`, "ab"]] }, `${S0}.role`)).toBe("must be at least 3 characters");
    expect(messageAt({ edits: [[`${CF}.title`, long(1025)]] }, `${CF}.title`)).toBe("must be at most 1024 characters");
  });
  it("says integer for integer fields and mentions null where null is allowed", () => {
    expect(messageAt({ edits: [[`${CF}.folderId`, "3"]] }, `${CF}.folderId`)).toBe("must be an integer");
    expect(messageAt({ edits: [[`${CF}.sendAt`, "now"]] }, `${CF}.sendAt`)).toBe("must be an integer or null");
  });
  it("does not echo the input back", () => {
    const secret = "0101901234-not-a-cpr";
    const errors = errorsOf({ edits: [[`${S0}.cpr`, secret]] });
    expect(JSON.stringify(errors)).not.toContain(secret);
  });
});

describe("validateCreateRequest: valid requests", () => {
  it("applies the defaults", () => {
    const value = valueOf({ edits: [[`${S1}.role`, DEL], WITH_CC] });
    const cf = value.caseFile;
    expect(cf).toMatchObject({
      activateCaseFile: true,
      language: null,
      sendAt: null,
      expireAt: null,
      sensitiveData: false,
      visibilityMode: 0,
      disableNotificationsOwner: false,
      disableEmailAttachments: false,
      senderName: null,
      signOnMeeting: false,
    });
    expect(cf.signers[0]).toMatchObject({ channel: "email", role: "Employee", signOrder: 0, language: null });
    expect(cf.signers[1]).toMatchObject({ channel: "email", role: "Signer", enableInsecureSigning: false });
    expect(cf.signers[1]?.secureSigningMethods).toBeUndefined();
    expect(cf.documents[0]?.signable).toBe(true);
    expect(cf.documents[1]?.signable).toBe(false);
    expect(cf.ccRecipients?.[0]?.storeAsContact).toBe(true);
  });

  const validCases: ReadonlyArray<{ name: string } & Request> = [
    { name: "eboks with cpr", edits: [EBOKS, [`${S0}.cpr`, "0101901234"]] },
    { name: "eboks with cvr and suffix", edits: [EBOKS, [`${S0}.cvr`, "12345678:abc"]] },
    { name: "eboks with plain cvr and no email", edits: [EBOKS, [`${S0}.email`, DEL], [`${S0}.cvr`, "12345678"]] },
    { name: "empty senderName", edits: [[`${CF}.senderName`, ""]] },
    { name: "senderName of 2 chars", edits: [[`${CF}.senderName`, "AB"]] },
    { name: "senderName of 255 chars", edits: [[`${CF}.senderName`, long(255)]] },
    { name: "null senderName", edits: [[`${CF}.senderName`, null]] },
    { name: "null case file language", edits: [[`${CF}.language`, null]] },
    {
      name: "null signer language and timestamps",
      edits: [
        [`${S0}.language`, null],
        [`${S0}.activeAt`, null],
        [`${S0}.expireAt`, null],
      ],
    },
    { name: "every language", edits: LANGUAGES.map((l, i): Edit => [`${CF}.signers[${i}]`, { name: `S${i}`, language: l }]) },
    { name: "roles matching the signers", edits: [[`${D0}.roles`, ["Employee", "Manager"]]] },
    {
      name: "roles split over two signable documents",
      edits: [
        [`${D0}.roles`, ["Employee"]],
        [`${CF}.documents[2]`, { title: "Bonus", name: "bonus.pdf", roles: ["Manager"] }],
      ],
      files: [...FILES, "bonus.pdf"],
    },
    {
      name: "roles on one document and a roleless signable document",
      edits: [
        [`${D0}.roles`, ["Employee"]],
        [`${CF}.documents[2]`, { title: "Policy", name: "policy.pdf" }],
      ],
      files: [...FILES, "policy.pdf"],
    },
    {
      name: "several attachments besides one signable document",
      edits: [[`${CF}.documents[2]`, { title: "Terms", name: "terms.pdf", signable: false }]],
      files: [...FILES, "terms.pdf"],
    },
    {
      name: "title of 1024 chars",
      edits: [
        [`${CF}.title`, long(1024)],
        [`${D0}.title`, long(1024)],
      ],
    },
    {
      name: "role with inner spaces and symbols",
      edits: [
        [`${S0}.role`, "Sales rep – ÆØÅ"],
        [`${D0}.roles`, ["Sales rep – ÆØÅ"]],
        [`${D1}.roles`, ["Manager"]],
        [`${D1}.signable`, true],
      ],
    },
    {
      name: "expireAt after sendAt",
      edits: [
        [`${CF}.sendAt`, 1_900_000_000],
        [`${CF}.expireAt`, 1_900_000_001],
      ],
    },
    { name: "timestamp 0", edits: [[`${CF}.sendAt`, 0]] },
    {
      name: "signer expireAt after activeAt",
      edits: [
        [`${S0}.activeAt`, 1_900_000_000],
        [`${S0}.expireAt`, 1_900_086_400],
      ],
    },
    {
      name: "insecure signing enabled with methods",
      edits: [
        [`${S0}.enableInsecureSigning`, true],
        [`${S0}.insecureSigningMethods`, ["text", "draw", "image"]],
      ],
    },
    { name: "empty insecure methods without enabling", edits: [[`${S0}.insecureSigningMethods`, []]] },
    { name: "empty secure methods", edits: [[`${S0}.secureSigningMethods`, []]] },
    { name: "every secure method", edits: [[`${S0}.secureSigningMethods`, [...SECURE_SIGNING_METHODS]]] },
    { name: "visibilityMode 1", edits: [[`${CF}.visibilityMode`, 1]] },
    {
      name: "every optional field set",
      edits: [
        [`${CF}.activateCaseFile`, false],
        [`${CF}.metaData`, "crm:42"],
        [`${CF}.reference`, "REF-1"],
        [`${CF}.folderId`, 1],
        [`${CF}.language`, "da"],
        [`${CF}.sensitiveData`, true],
        [`${CF}.disableNotificationsOwner`, true],
        [`${CF}.disableEmailAttachments`, true],
        [`${CF}.signOnMeeting`, true],
        [`${CF}.senderName`, "Acme HR"],
        [
          S0,
          {
            name: "Alice Andersen",
            email: "alice@example.com",
            channel: "email",
            socialSecurityNumberPlain: "+4512345678",
            vatin: null,
            role: "Employee",
            onBehalfOf: "Acme",
            signOrder: 2,
            ssnType: "dk:cpr",
            accessControl: true,
            successUrl: "https://example.com/ok",
            failUrl: "myapp://failed",
            language: "en",
            emailFormat: "html",
            emailSubject: "Please sign",
            emailText: "Dear Alice, please sign.",
            reminderInterval: 1,
            reminderEmailSubject: "Reminder",
            reminderEmailText: "Please sign soon.",
            completedEmailSubject: "All done",
            completedEmailText: "Thank you.",
            activeAt: 1_900_000_000,
            expireAt: 1_900_100_000,
            enableInsecureSigning: true,
            insecureSigningMethods: ["draw"],
            secureSigningMethods: ["mitid.dk", "sms"],
            storeAsContact: false,
          },
        ],
        [D0, { title: "Contract", name: "contract.pdf", signable: true, roles: ["Employee", "Manager"], documentOrder: 0, metaData: "m" }],
        [`${CF}.ccRecipients`, [{ name: "Carol", email: "carol@example.com", storeAsContact: false }]],
      ],
    },
  ];

  it.each(validCases.map((c) => [c.name, c] as const))("accepts %s", (_name, c) => {
    const result = run(c);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it("treats an empty senderName as the default", () => {
    expect(valueOf({ edits: [[`${CF}.senderName`, ""]] }).caseFile.senderName).toBeNull();
  });

  it("keeps the cvr suffix", () => {
    expect(valueOf({ edits: [EBOKS, [`${S0}.cvr`, "12345678:abc"]] }).caseFile.signers[0]?.cvr).toBe("12345678:abc");
  });
});

describe("formatPath", () => {
  it.each([
    [[], ""],
    [["caseFile"], "caseFile"],
    [["caseFile", "signers", 0, "email"], "caseFile.signers[0].email"],
    [["files", 2], "files[2]"],
    [["caseFile", "odd key"], 'caseFile["odd key"]'],
    [["caseFile", "a.b"], 'caseFile["a.b"]'],
  ] as const)("%j -> %s", (path, expected) => {
    expect(formatPath(path)).toBe(expected);
  });
});
