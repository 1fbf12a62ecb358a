import { z } from "zod";
import { CASEFILE_STATUS } from "@esign/schema";
import { component } from "./components";

/*
 * The schemas every feature's contracts share: the error body, ids in paths, binary bodies, times.
 */

export const ZFieldIssue = z.object({
  path: z.string().describe('Where the problem is, e.g. "caseFile.signers[0].email"'),
  code: z.string(),
  message: z.string(),
});

export const ZErrorBody = component(
  "ErrorBody",
  z
    .object({
      error: z.string().describe("Machine-readable code, e.g. validation_failed, unauthorized, not_found, conflict"),
      message: z.string(),
      statusCode: z.int(),
      errors: z.array(ZFieldIssue).optional().describe("Every failing field, not only the first"),
      errorId: z.string().optional().describe("500 only: the id under which the failure is logged"),
    })
    .describe("The body of every 4xx and 5xx answer"),
);

/** A serial id in a path: a positive 32-bit integer (PostgreSQL's `integer`). */
export const ZId = z.coerce.number().int().positive().max(2_147_483_647);

export const ZBinaryFile = z.string().meta({ format: "binary" });

export const isoTime = () => z.iso.datetime().describe("ISO 8601, UTC");
export const unixTime = () => z.int().describe("Unix time, seconds");

/** `{ new: 0, pending: 1 }` as "0 new, 1 pending", for descriptions of numeric codes. */
export const describeCodes = (values: Record<string, number>) =>
  Object.entries(values)
    .map(([name, n]) => `${n} ${name}`)
    .join(", ");

/** Case file statuses are read by several features (case files, jobs, folders). */
export const ZCaseFileStatus = z.literal(Object.values(CASEFILE_STATUS)).describe(`Case file status: ${describeCodes(CASEFILE_STATUS)}`);

/**
 * Leaves out the keys of an answer that no request changes (`id`, `sdkClassName`, `status`, ...),
 * so that a client may PUT back an object it read, as Penneo's SDKs do:
 * `z.preprocess(withoutKeys(["id", ...]), z.strictObject({...}))` still refuses every other unknown key.
 */
export const withoutKeys =
  (keys: readonly string[]) =>
  (body: unknown): unknown => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
    return Object.fromEntries(Object.entries(body).filter(([k]) => !keys.includes(k)));
  };

/**
 * A key of an answer that a client may send back in a PUT or POST of the object it fetched (sdk-net
 * and sdk-php echo what they read): accepted and ignored, so a strict body still refuses a typo.
 */
export const ignoredReadOnly = (what: string) => z.unknown().optional().describe(`${what}; read-only, ignored`);
