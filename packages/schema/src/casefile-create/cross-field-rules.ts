import type { z } from "zod";
import { formatPath, type FieldError } from "../field-error";

/*
 * The create payload's rules across fields and files (documents named by an uploaded file, roles that
 * a signer can sign, unique names, ...) and the caps on how many of each, with the conversion of
 * zod issues into the contract's field errors.
 */

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasOwn(obj: JsonObject, key: PropertyKey): boolean {
  return Object.hasOwn(obj, key);
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

export function issueToErrors(root: unknown, issue: z.core.$ZodIssue): FieldError[] {
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
export function crossFieldErrors(root: unknown, uploadedFileNames: readonly string[]): FieldError[] {
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
        add([...at, "insecureSigningMethods"], "insecure_signing_disabled", "insecure signing methods require enableInsecureSigning true");
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
export function capErrors(root: unknown, caps: CaseFileCaps): FieldError[] {
  const cf = typeof root === "object" && root !== null ? (root as { caseFile?: unknown }).caseFile : undefined;
  if (typeof cf !== "object" || cf === null) return [];
  const errors: FieldError[] = [];
  for (const [key, max] of [
    ["signers", caps.signers],
    ["documents", caps.documents],
    ["ccRecipients", caps.ccRecipients],
  ] as const) {
    const list = (cf as Record<string, unknown>)[key];
    if (Array.isArray(list) && list.length > max)
      errors.push({ path: `caseFile.${key}`, code: "too_big", message: `at most ${max} ${key} per case file (${list.length} given)` });
  }
  return errors;
}
