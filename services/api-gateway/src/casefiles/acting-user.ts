import type { Request, Response } from "express";
import type { LogAudit } from "@esign/schema";
import { principalOf } from "../auth/authenticate";
import { userAudit } from "../http/request-evidence";

/** The customer an API call acts for, and who made it from where (the event log's audit). */
export interface ActingUser {
  customerId: number;
  audit: LogAudit;
}

export function actingUser(req: Request, res: Response): ActingUser {
  const { customerId, userId } = principalOf(res);
  return { customerId, audit: userAudit(userId, req) };
}
