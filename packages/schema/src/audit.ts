import { z } from "zod";

/** Who made it happen: the platform itself, a user of the customer (through the API), or the signer (through the link). */
export const LOG_ACTORS = ["system", "user", "signer"] as const;
export const ZLogActor = z.enum(LOG_ACTORS);
export type LogActor = z.infer<typeof ZLogActor>;

/**
 * Who and from where, beside what happened: set by the code that knows (a request's address and user
 * agent). Goes to the event log (log-catalog.ts), never into a webhook payload.
 */
export interface LogAudit {
  actor: LogActor;
  userId?: number | null;
  ip?: string | null;
  userAgent?: string | null;
}
