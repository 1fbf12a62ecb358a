import type { LogFields } from "@esign/logger";

// Catalog job data holds ids only (caseFileId, eventId, deliveryId, subscriptionId, signerId,
// creationJobId): those go on every line a job logs, so a case file's story can be grepped.
const ID_KEY = /^[a-z][A-Za-z]*Id$/;

/** The ids among a job's (already validated) data, as log fields. */
export function jobLogFields(data: unknown): LogFields {
  const fields: Record<string, string | number> = {};
  if (data === null || typeof data !== "object") return fields;
  for (const [key, value] of Object.entries(data)) {
    if (ID_KEY.test(key) && (typeof value === "string" || typeof value === "number")) fields[key] = value;
  }
  return fields;
}
