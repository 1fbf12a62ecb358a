import type { Request, Response } from "express";
import type { LogAudit } from "@esign/schema";
import { requestEvidence } from "../http/request-evidence";
import { principalOf } from "./authenticate";

/**
 * Who made a change through the API, as the event log states it: the user the credentials speak
 * for, from the request's address with its user agent.
 */
export function userAudit(req: Request, res: Response): LogAudit {
  const { ip, userAgent } = requestEvidence(req);
  return { actor: "user", userId: principalOf(res).userId, ip, userAgent };
}
