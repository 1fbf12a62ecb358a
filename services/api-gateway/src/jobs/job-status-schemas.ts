import { z } from "zod";
import type { SigningLinkItem } from "@esign/schema";

// What the job poll takes and answers: its contract (casefiles/casefile-contracts.ts) and its
// handler (job-status-route.ts) both read them from here.

export const JOB_STATUS_PATH = "/send/api/v1/queue/public/status";

export const ZStatusRequest = z.object({ uuid: z.uuid(), payloadHash: z.string().regex(/^[0-9a-f]{64}$/i) });

/**
 * A completed job's result as Penneo's published clients read it: `result.data.caseFile.id` and
 * `result.data.signingLinks[]` of `{name, role, signingLink}` (its Postman collection, its
 * sample scripts), each link with our `signerId` besides.
 */
export interface JobResult {
  data: { caseFile: { id: number; status: number }; signingLinks: SigningLinkItem[] };
}
