import { isIP } from "node:net";
import type { Request } from "express";
import type { LogAudit } from "@esign/schema";

/**
 * Who sent a request, as the audit trail and the event log state it (a signer signing, a user
 * sending a case file): the peer address of the connection (the gateway trusts no proxy header; see
 * `trust proxy` in app.ts) and the user agent. Stored with the signer or the log entry, never logged
 * (the logger redacts these keys).
 */
export interface RequestEvidence {
  ip: string | null;
  userAgent: string | null;
}

const MAX_USER_AGENT = 1024;

export function requestEvidence(req: Request): RequestEvidence {
  // IPv4 peers of a dual-stack socket arrive as ::ffff:a.b.c.d; the audit trail shows the IPv4 form.
  const raw = (req.socket.remoteAddress ?? "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  const ua = req
    .header("user-agent")
    ?.replace(/[\u0000-\u001f\u007f]/g, " ")
    .trim();
  return { ip: isIP(raw) ? raw : null, userAgent: ua ? ua.slice(0, MAX_USER_AGENT) : null };
}

/** The audit of an action a signer took through their link, for the event log. */
export const signerAudit = (evidence: RequestEvidence): LogAudit => ({ actor: "signer", ip: evidence.ip, userAgent: evidence.userAgent });

/** The audit of an action an API user took, for the event log: who, from which address. */
export const userAudit = (userId: number, req: Request): LogAudit => ({ actor: "user", userId, ...requestEvidence(req) });
