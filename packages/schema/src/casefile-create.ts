import { formatPath, type FieldError } from "./field-error";
import { unstorableTextIssues } from "./storable-text";
import { capErrors, crossFieldErrors, DEFAULT_CASEFILE_CAPS, issueToErrors, type CaseFileCaps } from "./casefile-create/cross-field-rules";
import { errorMap } from "./casefile-create/messages";
import { ZCaseFileCreateData, type TCaseFileCreateData } from "./casefile-create/schemas";

/*
 * Validation of the create endpoint's `data` part: the schemas (casefile-create/schemas.ts), then the
 * rules across fields (cross-field-rules.ts), every failing field reported at once, in the words of
 * messages.ts.
 */

export { formatPath, type FieldError };
export * from "./casefile-create/schemas";
export { DEFAULT_CASEFILE_CAPS, type CaseFileCaps } from "./casefile-create/cross-field-rules";
export { errorMap as createErrorMap } from "./casefile-create/messages";

/**
 * The create's rules across fields, over a case file's signers and documents as they would be after
 * an edit (issue 24: a signer added to or changed on a draft follows the create's rules, with its
 * codes and words). Paths are the create's: `caseFile.signers[i].role`, `caseFile.documents[j].roles[k]`.
 */
export function signerRuleErrors(
  signers: readonly unknown[],
  documents: readonly { name: string; signable: boolean; roles: readonly string[] }[],
): FieldError[] {
  return crossFieldErrors(
    { caseFile: { signers, documents } },
    documents.map((d) => d.name),
  );
}

export type ValidateCreateResult = { ok: true; value: TCaseFileCreateData } | { ok: false; errors: FieldError[] };

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
