import type { Request, Response } from "express";
import type { LogAudit } from "@esign/schema";
import { requestEvidence } from "../http/request-evidence";
import { principalOf } from "./authenticate";

/**
 * Who made a change through the API, for the event log (LogEntry): the authenticated user of the
 * customer, from the request's address and user agent.
 */
export function userAudit(req: Request, res: Response): LogAudit {
  return { actor: "user", userId: principalOf(res).userId, ...requestEvidence(req) };
}
