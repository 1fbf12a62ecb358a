import { z } from "zod";
import {
  ZChannel,
  ZEmailFormat,
  ZInsecureSigningMethod,
  ZLanguage,
  ZSecureSigningMethod,
  ZSsnType,
} from "./enums";
import { formatPath, type FieldError } from "./field-error";
import { unstorableTextIssues } from "./storable-text";

export { formatPath, type FieldError } from "./field-error";

export type ValidateCreateResult = { ok: true; value: TCaseFileCreateData } | { ok: false; errors: FieldError[] };

// ---------------------------------------------------------------------------------------------
// Field building blocks
// ---------------------------------------------------------------------------------------------

/*
 * Schemas wrapped by `orNull` are remembered so that the error map can say "must be a string or
 * null": zod reports the type issue on the inner schema and never tells which wrapper was around it.
 */
const acceptsNull = new WeakSet<object>();
function orNull<T extends z.ZodType>(schema: T): z.ZodNullable<T> {
  acceptsNull.add(schema);
  return schema.nullable();
}

/*
 * zod reports a non-number given to z.int() as expected "number"; remembering the integer schemas lets
 * the message still say "integer".
 */
const integerSchemas = new WeakSet<object>();
function integer(min: number) {
  const schema = z.int().min(min);
  integerSchemas.add(schema);
  return schema;
}

const timestamp = () => integer(0);

// A leading/trailing whitespace check that lets "" through, so an empty role yields only too_small.
const NO_OUTER_WHITESPACE = /^(?!\s)[\s\S]*(?<!\s)$/;
const role = () =>
  z
    .string()
    .min(3)
    .regex(NO_OUTER_WHITESPACE, { error: "must not start or end with whitespace" });

const CPR = /^\d{10}$/;
const CVR = /^\d{8}(?::[A-Za-z0-9]+)?$/;

/*
 * successUrl/failUrl become redirect targets of the signing page, so script-capable schemes are
 * refused even though they are syntactically valid URIs (a stored XSS vector otherwise). Custom app
 * schemes stay allowed for mobile deep links.
 */
const SAFE_URI_SCHEME = /^(?!(?:javascript|data|vbscript)$)[a-z][a-z0-9+.-]*$/i;
const redirectUri = () => z.url({ protocol: SAFE_URI_SCHEME }).min(5);

const textMin5 = () => z.string().min(5);

// The spec's "2 to 255 chars" with "" meaning "use the default": too_small keeps the code stable.
const senderName = orNull(
  z
    .string()
    .max(255)
    .superRefine((value, ctx) => {
      if (value.length === 1) {
        ctx.addIssue({
          code: "too_small",
          origin: "string",
          minimum: 2,
          inclusive: true,
          input: value,
          message: "must be empty or at least 2 characters",
        });
      }
    }),
)
  .default(null)
  // Downstream code then has a single "use the default" value to look for.
  .transform((value) => (value === "" ? null : value));

// ---------------------------------------------------------------------------------------------
// Resource schemas
// ---------------------------------------------------------------------------------------------

export const ZCcRecipient = z.strictObject({
  name: z.string().min(1),
  email: z.email(),
  storeAsContact: z.boolean().default(true),
});

export const ZSigner = z.strictObject({
  name: z.string().min(1),
  // The Limits table's "min 5 chars" for signer email is implied: no string under 6 chars passes z.email().
  email: z.email().optional(),
  channel: ZChannel.default("email"),
  cpr: z.string().regex(CPR, { error: "must be exactly 10 digits" }).optional(),
  cvr: z
    .string()
    .regex(CVR, { error: "must be 8 digits, optionally followed by :suffix (letters and digits)" })
    .optional(),
  socialSecurityNumberPlain: orNull(z.string()).optional(),
  vatin: orNull(z.string()).optional(),
  role: role().default("Signer"),
  onBehalfOf: z.string().optional(),
  signOrder: integer(0).default(0),
  ssnType: ZSsnType.optional(),
  accessControl: z.boolean().optional(),
  successUrl: redirectUri().optional(),
  failUrl: redirectUri().optional(),
  // null defers to the case file language (then `da` for eboks), so it is the natural default.
  language: orNull(ZLanguage).default(null),
  emailFormat: ZEmailFormat.optional(),
  emailSubject: textMin5().optional(),
  emailText: textMin5().optional(),
  reminderInterval: integer(1).optional(),
  reminderEmailSubject: textMin5().optional(),
  reminderEmailText: textMin5().optional(),
  completedEmailSubject: textMin5().optional(),
  completedEmailText: textMin5().optional(),
  activeAt: orNull(timestamp()).default(null),
  expireAt: orNull(timestamp()).default(null),
  enableInsecureSigning: z.boolean().default(false),
  insecureSigningMethods: z.array(ZInsecureSigningMethod).optional(),
  // No default: omitted means "all methods of the account", [] means "none"; the two must stay apart.
  secureSigningMethods: z.array(ZSecureSigningMethod).optional(),
  storeAsContact: z.boolean().optional(),
});

export const ZDocument = z.strictObject({
  title: z.string().min(1).max(1024),
  name: z.string().min(1),
  signable: z.boolean().default(true),
  roles: z.array(role()).optional(),
  documentOrder: integer(0).optional(),
  metaData: z.string().optional(),
});

export const ZCaseFile = z.strictObject({
  title: z.string().min(1).max(1024),
  signers: z.array(ZSigner).min(1),
  documents: z.array(ZDocument).min(1),
  activateCaseFile: z.boolean().default(true),
  ccRecipients: z.array(ZCcRecipient).optional(),
  language: orNull(ZLanguage).default(null),
  metaData: z.string().optional(),
  reference: z.string().optional(),
  folderId: integer(1).optional(),
  sendAt: orNull(timestamp()).default(null),
  expireAt: orNull(timestamp()).default(null),
  sensitiveData: z.boolean().default(false),
  visibilityMode: z.literal([0, 1]).default(0),
  disableNotificationsOwner: z.boolean().default(false),
  disableEmailAttachments: z.boolean().default(false),
  senderName,
  signOnMeeting: z.boolean().default(false),
});

export const ZCaseFileCreateData = z.strictObject({
  caseFile: ZCaseFile,
});

export type TCcRecipient = z.output<typeof ZCcRecipient>;
export type TSigner = z.output<typeof ZSigner>;
export type TDocument = z.output<typeof ZDocument>;
export type TCaseFile = z.output<typeof ZCaseFile>;
export type TCaseFileCreateData = z.output<typeof ZCaseFileCreateData>;
/** What a client may send (defaults not yet applied). */
export type TCaseFileCreateInput = z.input<typeof ZCaseFileCreateData>;

// ---------------------------------------------------------------------------------------------
// Paths and messages
// ---------------------------------------------------------------------------------------------


const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  array: "an array",
  object: "an object",
};

function plural(n: number | bigint, word: string): string {
  return `${String(n)} ${word}${n === 1 || n === BigInt(1) ? "" : "s"}`;
}

function sizeMessage(bound: "least" | "most", origin: string, n: number | bigint, inclusive: boolean): string {
  if (origin === "string") return `must be at ${bound} ${plural(n, "character")}`;
  if (origin === "array") return `must contain at ${bound} ${plural(n, "item")}`;
  if (inclusive) return `must be at ${bound} ${String(n)}`;
  return `must be ${bound === "least" ? "greater" : "less"} than ${String(n)}`;
}

/* Per-parse error map: schema-level messages (cpr, cvr, role, ...) still win over it. */
const errorMap: z.core.$ZodErrorMap = (iss) => {
  switch (iss.code) {
    case "invalid_type": {
      const raisedBy = (set: WeakSet<object>): boolean =>
        (iss.inst !== undefined && set.has(iss.inst)) || (iss.schema !== undefined && set.has(iss.schema));
      const nullable = raisedBy(acceptsNull);
      const expectedType = iss.expected === "number" && raisedBy(integerSchemas) ? "int" : iss.expected;
      const expected = TYPE_NAMES[expectedType] ?? `of type ${expectedType}`;
      return `must be ${expected}${nullable ? " or null" : ""}`;
    }
    case "too_small":
      return sizeMessage("least", iss.origin, iss.minimum, iss.inclusive !== false);
    case "too_big":
      return sizeMessage("most", iss.origin, iss.maximum, iss.inclusive !== false);
    case "invalid_value":
      return `must be one of ${iss.values.map((v) => String(v)).join(", ")}`;
    case "invalid_format":
      if (iss.format === "email") return "must be a valid email address";
      if (iss.format === "url") return "must be a valid URI";
      return "has an invalid format";
    case "unrecognized_keys":
      return "is not an allowed property";
    default:
      return "is invalid";
  }
};

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasOwn(obj: JsonObject, key: PropertyKey): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Whether `path` names a property that is absent from an object that does exist in `root`. */
function isMissingProperty(root: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  const key = path[path.length - 1];
  if (key === undefined || typeof key === "number") return false;
  let parent: unknown = root;
  for (const step of path.slice(0, -1)) {
    if (Array.isArray(parent) && typeof step === "number") parent = parent[step];
    else if (isObject(parent) && typeof step === "string" && hasOwn(parent, step)) parent = parent[step];
    else return false;
  }
  return isObject(parent) && !hasOwn(parent, key);
}

function issueToErrors(root: unknown, issue: z.core.$ZodIssue): FieldError[] {
  const path = formatPath(issue.path);
  switch (issue.code) {
    case "unrecognized_keys":
      // One entry per key so that a client can point at each offending property.
      return issue.keys.map((key) => ({
        path: formatPath([...issue.path, key]),
        code: "unrecognized_key",
        message: "is not an allowed property",
      }));
    case "invalid_type":
      if (issue.path.length === 0) {
        return [{ path: "data", code: "invalid_type", message: "must be a JSON object" }];
      }
      if (isMissingProperty(root, issue.path)) {
        const name = String(issue.path[issue.path.length - 1]);
        return [{ path, code: "required", message: `${name} is required` }];
      }
      return [{ path, code: "invalid_type", message: issue.message }];
    case "custom": {
      const code: unknown = issue.params?.["code"];
      return [{ path, code: typeof code === "string" ? code : "invalid_value", message: issue.message }];
    }
    default:
      return [{ path: path === "" ? "data" : path, code: issue.code, message: issue.message }];
  }
}

function isTimestampLike(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Indexes of the entries of `values` that repeat an earlier entry. */
function repeatedIndexes(values: readonly unknown[]): number[] {
  const seen = new Set<unknown>();
  const repeated: number[] = [];
  values.forEach((value, index) => {
    if (typeof value !== "string") return;
    if (seen.has(value)) repeated.push(index);
    else seen.add(value);
  });
  return repeated;
}

/*
 * Cross-field rules run over the raw JSON rather than as zod refinements: zod skips refinements of an
 * object whose own fields failed, and a 400 must list every problem at once. Every access is
 * therefore guarded, and a rule only fires when the fields it relies on have a usable shape, so it
 * never repeats what the per-field schemas already reported.
 */
function crossFieldErrors(root: unknown, uploadedFileNames: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const add = (path: ReadonlyArray<PropertyKey>, code: string, message: string): void => {
    errors.push({ path: formatPath(path), code, message });
  };

  if (uploadedFileNames.length === 0) {
    add(["files"], "required", "at least one file must be uploaded");
  }
  for (const j of repeatedIndexes(uploadedFileNames)) {
    add(["files", j], "duplicate_file", `file name ${JSON.stringify(uploadedFileNames[j])} is uploaded more than once`);
  }

  const caseFile = isObject(root) && isObject(root["caseFile"]) ? root["caseFile"] : undefined;
  if (caseFile === undefined) return errors;
  const base = ["caseFile"] as const;

  const sendAt = caseFile["sendAt"];
  const expireAt = caseFile["expireAt"];
  if (isTimestampLike(sendAt) && isTimestampLike(expireAt) && expireAt <= sendAt) {
    add([...base, "expireAt"], "expire_before_send", "must be later than sendAt");
  }

  const signers = Array.isArray(caseFile["signers"]) ? caseFile["signers"] : undefined;
  const documents = Array.isArray(caseFile["documents"]) ? caseFile["documents"] : undefined;

  // --- signers on their own -------------------------------------------------------------------
  (signers ?? []).forEach((signer: unknown, i) => {
    if (!isObject(signer)) return;
    const at = [...base, "signers", i] as const;
    const channel = signer["channel"];
    const hasCpr = present(signer["cpr"]);
    const hasCvr = present(signer["cvr"]);

    if (hasCpr && hasCvr) {
      add(at, "cpr_cvr_exclusive", "cpr and cvr are mutually exclusive: give only one");
    }
    if (channel === "eboks") {
      if (!hasCpr && !hasCvr) add(at, "eboks_identifier_required", "channel eboks requires exactly one of cpr or cvr");
    } else if (channel === undefined || channel === "email") {
      if (hasCpr) add([...at, "cpr"], "eboks_only", "cpr is only allowed when channel is eboks");
      if (hasCvr) add([...at, "cvr"], "eboks_only", "cvr is only allowed when channel is eboks");
    }

    const insecure = signer["insecureSigningMethods"];
    if (Array.isArray(insecure)) {
      if (insecure.length > 0 && signer["enableInsecureSigning"] !== true) {
        add(
          [...at, "insecureSigningMethods"],
          "insecure_signing_disabled",
          "insecure signing methods require enableInsecureSigning true",
        );
      }
      for (const k of repeatedIndexes(insecure)) {
        add([...at, "insecureSigningMethods", k], "duplicate_value", "is listed more than once");
      }
    }
    const secure = signer["secureSigningMethods"];
    if (Array.isArray(secure)) {
      for (const k of repeatedIndexes(secure)) {
        add([...at, "secureSigningMethods", k], "duplicate_value", "is listed more than once");
      }
    }

    const activeAt = signer["activeAt"];
    const signerExpireAt = signer["expireAt"];
    if (isTimestampLike(activeAt) && isTimestampLike(signerExpireAt) && signerExpireAt <= activeAt) {
      add([...at, "expireAt"], "expire_before_active", "must be later than activeAt");
    }
  });

  if (documents === undefined) return errors;

  // --- documents and uploaded files -----------------------------------------------------------
  const documentObjects = documents.map((d: unknown) => (isObject(d) ? d : undefined));
  const documentNames = documentObjects.map((d) => d?.["name"]);
  const uploaded = new Set(uploadedFileNames);
  const named = new Set(documentNames.filter((n): n is string => typeof n === "string"));

  documentNames.forEach((name, i) => {
    if (typeof name === "string" && name.length > 0 && !uploaded.has(name)) {
      add([...base, "documents", i, "name"], "document_file_missing", `no uploaded file is named ${JSON.stringify(name)}`);
    }
  });
  for (const i of repeatedIndexes(documentNames)) {
    add([...base, "documents", i, "name"], "duplicate_name", "another document has the same name");
  }
  uploadedFileNames.forEach((fileName, j) => {
    if (!named.has(fileName)) {
      add(["files", j], "file_unmatched", `uploaded file ${JSON.stringify(fileName)} matches no document name`);
    }
  });

  if (documents.length > 0 && !documentObjects.some((d) => d !== undefined && isSignable(d))) {
    add([...base, "documents"], "no_signable_document", "at least one document must be signable");
  }

  // --- roles ----------------------------------------------------------------------------------
  const signerRoles = new Set<string>();
  for (const signer of signers ?? []) {
    if (!isObject(signer)) continue;
    const r = signer["role"];
    if (r === undefined) signerRoles.add("Signer");
    else if (typeof r === "string") signerRoles.add(r);
  }

  documentObjects.forEach((doc, i) => {
    const roles = doc?.["roles"];
    if (!Array.isArray(roles) || signers === undefined) return;
    roles.forEach((r: unknown, k) => {
      if (typeof r === "string" && r.length > 0 && !signerRoles.has(r)) {
        add([...base, "documents", i, "roles", k], "role_without_signer", `no signer has the role ${JSON.stringify(r)}`);
      }
    });
  });

  /*
   * Roles restrict only the documents that list them: a signable document without roles stays open
   * to every signer. A signer is stranded only when every signable document lists roles and none of
   * them is the signer's.
   */
  const signable = documentObjects.filter((d): d is JsonObject => d !== undefined && isSignable(d));
  const anyRoles = documentObjects.some((d) => rolesOf(d).length > 0);
  if (anyRoles && signable.length > 0 && signable.every((d) => rolesOf(d).length > 0)) {
    const signableRoles = new Set(signable.flatMap((d) => rolesOf(d)));
    (signers ?? []).forEach((signer: unknown, i) => {
      if (!isObject(signer)) return;
      const r = signer["role"] === undefined ? "Signer" : signer["role"];
      if (typeof r === "string" && !signableRoles.has(r)) {
        add(
          [...base, "signers", i, "role"],
          "signer_without_document",
          `no signable document lists the role ${JSON.stringify(r)}, so this signer could sign nothing`,
        );
      }
    });
  }

  return errors;
}

function isSignable(doc: JsonObject): boolean {
  const signable = doc["signable"];
  return signable === undefined || signable === true;
}

function rolesOf(doc: JsonObject | undefined): string[] {
  const roles = doc?.["roles"];
  return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === "string") : [];
}

/**
 * Validates the `data` part of a create request against the uploaded file names. Returns the parsed
 * payload with defaults applied, or every failing field (per-field and cross-field) at once.
 */
/** How many of each a case file may hold (CASEFILE_MAX_* settings); beyond them the request is a 400. */
export interface CaseFileCaps {
  signers: number;
  documents: number;
  ccRecipients: number;
}

export const DEFAULT_CASEFILE_CAPS: CaseFileCaps = { signers: 100, documents: 50, ccRecipients: 50 };

/**
 * Arrays longer than the caps, found before anything else is validated: one request with ten
 * thousand signers must cost neither a full validation nor an error list as long as itself.
 */
function capErrors(root: unknown, caps: CaseFileCaps): FieldError[] {
  const cf = typeof root === "object" && root !== null ? (root as { caseFile?: unknown }).caseFile : undefined;
  if (typeof cf !== "object" || cf === null) return [];
  const errors: FieldError[] = [];
  for (const [key, max] of [["signers", caps.signers], ["documents", caps.documents], ["ccRecipients", caps.ccRecipients]] as const) {
    const list = (cf as Record<string, unknown>)[key];
    if (Array.isArray(list) && list.length > max) errors.push({ path: `caseFile.${key}`, code: "too_big", message: `at most ${max} ${key} per case file (${list.length} given)` });
  }
  return errors;
}

export function validateCreateRequest(data: string, uploadedFileNames: readonly string[], caps: CaseFileCaps = DEFAULT_CASEFILE_CAPS): ValidateCreateResult {
  // The HTTP layer hands over whatever the multipart parser produced; a missing part must not throw.
  const text: unknown = data;
  if (typeof text !== "string") {
    return { ok: false, errors: [{ path: "data", code: "required", message: "data is required" }] };
  }
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return { ok: false, errors: [{ path: "data", code: "invalid_json", message: "must be a valid JSON string" }] };
  }

  const tooMany = capErrors(root, caps);
  if (tooMany.length > 0) return { ok: false, errors: tooMany };

  const parsed = ZCaseFileCreateData.safeParse(root, { error: errorMap });
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const push = (e: FieldError): void => {
    const key = `${e.path}\u0000${e.code}`;
    if (seen.has(key)) return;
    seen.add(key);
    errors.push(e);
  };
  if (!parsed.success) {
    for (const issue of parsed.error.issues) issueToErrors(root, issue).forEach(push);
  }
  crossFieldErrors(root, uploadedFileNames).forEach(push);
  // Text PostgreSQL cannot store (NUL, lone surrogates) is a 400 for its field, not a 500 later.
  unstorableTextIssues(root).forEach(push);

  if (parsed.success && errors.length === 0) return { ok: true, value: parsed.data };
  return { ok: false, errors };
}
