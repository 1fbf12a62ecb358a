/** One failing field of a create request, as listed in the `errors` array of a 400 answer. */
export interface FieldError {
  path: string;
  code: string;
  message: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `["caseFile", "signers", 0, "email"]` -> `caseFile.signers[0].email`; odd keys are bracket-quoted. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") {
      out += `[${key}]`;
    } else if (typeof key === "symbol") {
      out += `[${String(key)}]`;
    } else if (IDENTIFIER.test(key)) {
      out += out === "" ? key : `.${key}`;
    } else {
      out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}
