import { z } from "zod";
import { ZSigningLinkItem } from "@esign/schema";
import { component } from "../contract/components";
import { isoTime, ZCaseFileStatus } from "../contract/common-schemas";

// What the job poll takes and answers: its contract (job-contracts.ts) and its handler
// (job-status-route.ts) both read them from here.

export const JOB_STATUS_PATH = "/send/api/v1/queue/public/status";

export const ZStatusRequest = component("JobStatusRequest", z.object({ uuid: z.uuid(), payloadHash: z.string().regex(/^[0-9a-f]{64}$/i) }));

export const ZJob = component(
  "Job",
  z.object({
    uuid: z.uuid(),
    type: z.literal("casefile_creation"),
    jobStatus: z
      .enum(["pending", "processing", "completed", "failed", "aborted_duplicated"])
      .describe("aborted_duplicated: the same payload was submitted by the same customer moments before; no case file was made for this job"),
    result: z
      .object({
        data: z.object({
          caseFile: z.object({ id: z.int(), status: ZCaseFileStatus }),
          signingLinks: z.array(ZSigningLinkItem.extend({ signingLink: z.url().describe("{public base url}/sign/{token}") })),
        }),
      })
      .nullable()
      .describe("Set once the job is completed; read as result.data.caseFile.id and result.data.signingLinks"),
    payloadHash: z.string(),
    errorMessage: z.string().nullable().describe("Why a failed job failed"),
    retries: z.int(),
    maxRetries: z.int(),
    createdAt: isoTime(),
    updatedAt: isoTime(),
  }),
);

/**
 * A completed job's result as Penneo's published clients read it: `result.data.caseFile.id` and
 * `result.data.signingLinks[]` of `{name, role, signingLink}` (its Postman collection, its
 * sample scripts), each link with our `signerId` besides.
 */
export type JobResult = NonNullable<z.input<typeof ZJob>["result"]>;
