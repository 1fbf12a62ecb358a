import { z } from "zod";
import type { AppConfig } from "@esign/config";
import { errors, json, route, TAGS } from "../contract/route";
import { ZErrorBody } from "../contract/common-schemas";
import { JOB_STATUS_PATH, ZJob, ZStatusRequest } from "./job-status-schemas";

const rateLimitHeaders = {
  "RateLimit-Limit": { description: "Polls allowed per window", schema: z.int() },
  "RateLimit-Remaining": { description: "Polls left in this window", schema: z.int() },
  "RateLimit-Reset": { description: "Seconds until the window resets", schema: z.int() },
};

export function jobRoutes(config: AppConfig) {
  const perMinute = config.JOB_POLL_LIMIT_PER_MINUTE;
  return {
    getJobStatus: route({
      method: "post",
      path: JOB_STATUS_PATH,
      operationId: "getJobStatus",
      summary: "Poll a creation job",
      description:
        `No token: the uuid + payloadHash pair is the credential. ${perMinute > 0 ? `At most ${perMinute} polls a minute per job (the spec asks clients to poll no more often than every 5 s)` : "No poll limit"}; ` +
        `jobs are kept ${config.JOB_RETENTION_DAYS} days. A completed job's result is read as result.data.caseFile.id and result.data.signingLinks.`,
      tags: [TAGS.caseFiles],
      security: [],
      request: { body: { schema: ZStatusRequest, mediaTypes: ["application/json"] } },
      responses: {
        200: { description: "The job", content: json(ZJob), headers: rateLimitHeaders },
        ...errors({ 400: "uuid or payloadHash missing or malformed", 404: "Unknown pair, or the job is older than the retention" }),
        429: {
          description: `More than ${perMinute} polls of this job within a minute`,
          content: json(ZErrorBody),
          headers: { ...rateLimitHeaders, "Retry-After": { description: "Seconds until the next poll is answered", schema: z.int().min(1) } },
        },
      },
    }),
  };
}
