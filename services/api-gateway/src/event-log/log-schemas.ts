import { z } from "zod";
import { CASEFILE_LOG_CODES, LOG_ACTORS, SIGNER_LOG_CODES } from "@esign/schema";
import { component } from "../contract/components";
import { describeCodes, unixTime } from "../contract/common-schemas";
import { listKeys } from "../contract/list-query";

/*
 * Penneo's `log` resource (sdk-net `LogEntry`: `eventType` a non-nullable int, `eventTime` unix
 * seconds; sdk-php `LogEntry` the same): our codes (Penneo publishes none), with the event's name and
 * who made it happen from where beside them, which the SDKs ignore.
 */

export const ZLogQuery = z.strictObject({ ...listKeys(["id"]) });

export const ZLogEntry = component(
  "LogEntry",
  z.object({
    sdkClassName: z.literal("LogEntry").describe("The entity's class, as Penneo's SDKs read embedded entities"),
    id: z.int(),
    eventType: z.int().describe(`Our code (Penneo defines none). Signer: ${describeCodes(SIGNER_LOG_CODES)}. Case file: ${describeCodes(CASEFILE_LOG_CODES)}`),
    eventTime: unixTime(),
    event: z.string().describe("The code's name"),
    actor: z.enum(LOG_ACTORS).describe("system: the platform; user: an API user of the customer; signer: the signer through their link"),
    signerId: z.int().optional().describe("The signer an entry is about; absent for the case file's own entries"),
    userId: z.int().optional(),
    ip: z.string().optional().describe("The address the request came from (a signer's, a user's, or the mail client that fetched the tracking image)"),
    userAgent: z.string().optional(),
    detail: z.record(z.string(), z.unknown()).optional().describe("What changed (field names, never values of national ids or secrets)"),
  }),
);

export const ZLogEntryList = component("LogEntryList", z.array(ZLogEntry).describe("Oldest first"));

export type LogEntryView = z.input<typeof ZLogEntry>;
