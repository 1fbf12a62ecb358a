import type { RecipientRejection } from "./types";

/**
 * Where a delivery failed. Callers decide with it what a failure means for them: a signer is only
 * "undeliverable" for `recipient`/`message` failures, never because our own SMTP login is broken.
 */
export type MailFailureKind = "recipient" | "message" | "sender" | "auth" | "connection" | "protocol";

export interface MailDeliveryErrorDetails {
  permanent: boolean;
  kind: MailFailureKind;
  responseCode?: number;
  /** The SMTP command the server refused (`RCPT TO`, `DATA`, ...), as nodemailer names it. */
  command?: string;
  /** The server's reply line. */
  response?: string;
  /** nodemailer's error code (`EENVELOPE`, `EAUTH`, `ECONNECTION`, ...). */
  code?: string;
  rejections?: RecipientRejection[];
  cause?: unknown;
}

/**
 * A message that did not go out. `permanent` answers one question: can retrying this same message
 * later succeed without anyone changing anything? 5xx for a recipient or for the message means no;
 * 4xx, network trouble, and problems with our own setup (login, sender address) mean yes, once the
 * server recovers or an operator fixes the configuration - so those never count as permanent.
 */
export class MailDeliveryError extends Error {
  override readonly name = "MailDeliveryError";
  readonly permanent: boolean;
  readonly kind: MailFailureKind;
  readonly responseCode?: number;
  readonly command?: string;
  readonly response?: string;
  readonly code?: string;
  readonly rejections: RecipientRejection[];

  constructor(message: string, details: MailDeliveryErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.permanent = details.permanent;
    this.kind = details.kind;
    this.responseCode = details.responseCode;
    this.command = details.command;
    this.response = details.response;
    this.code = details.code;
    this.rejections = details.rejections ?? [];
  }

  /** Turns whatever nodemailer threw into a classified error (a MailDeliveryError passes through). */
  static fromSmtpError(err: unknown): MailDeliveryError {
    if (err instanceof MailDeliveryError) return err;
    const e = readSmtpError(err);
    const { kind, permanent, responseCode, rejections } = classify(e);
    return new MailDeliveryError(`mail not delivered (${permanent ? "permanent" : "transient"}, ${kind}): ${e.message}`, {
      permanent,
      kind,
      responseCode,
      command: e.command,
      response: e.response,
      code: e.code,
      rejections,
      cause: err,
    });
  }
}

export const isPermanentReply = (code: number | undefined): boolean => code !== undefined && code >= 500 && code < 600;

/** The fields nodemailer puts on its errors; read defensively because a callback can reject with anything. */
interface SmtpErrorFields {
  message: string;
  code?: string;
  responseCode?: number;
  command?: string;
  response?: string;
  recipient?: string;
  rejectedErrors: SmtpErrorFields[];
}

function readSmtpError(err: unknown, depth = 0): SmtpErrorFields {
  if (typeof err !== "object" || err === null) return { message: String(err), rejectedErrors: [] };
  const o = err as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const nested = depth === 0 && Array.isArray(o.rejectedErrors) ? o.rejectedErrors.map((r) => readSmtpError(r, 1)) : [];
  return {
    message: str(o.message) ?? "unknown mail error",
    code: str(o.code),
    responseCode: typeof o.responseCode === "number" ? o.responseCode : replyCodeOf(str(o.response)),
    command: str(o.command),
    response: str(o.response),
    recipient: str(o.recipient),
    rejectedErrors: nested,
  };
}

function replyCodeOf(response: string | undefined): number | undefined {
  const m = response?.match(/^([2-5]\d\d)/);
  return m ? Number(m[1]) : undefined;
}

export function toRejection(e: { recipient?: string; responseCode?: number; response?: string }): RecipientRejection {
  return { recipient: e.recipient ?? "", responseCode: e.responseCode, permanent: isPermanentReply(e.responseCode), response: e.response };
}

// Socket-level failures: the server (or the path to it) may be back in a minute.
const NETWORK_CODES = new Set([
  "ECONNECTION",
  "ETIMEDOUT",
  "ESOCKET",
  "EDNS",
  "ETLS",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

interface Classified {
  kind: MailFailureKind;
  permanent: boolean;
  responseCode?: number;
  rejections: RecipientRejection[];
}

function classify(e: SmtpErrorFields): Classified {
  const code = e.responseCode;
  if (e.code === "EAUTH") return { kind: "auth", permanent: false, responseCode: code, rejections: [] };

  if (e.command === "RCPT TO") {
    const rejections = e.rejectedErrors.length > 0 ? e.rejectedErrors.map(toRejection) : [toRejection(e)];
    // One 4xx among the refusals means a retry may still reach that recipient.
    const permanent = rejections.every((r) => r.permanent);
    const representative = rejections.find((r) => r.permanent === permanent) ?? rejections[0];
    return { kind: "recipient", permanent, responseCode: representative?.responseCode ?? code, rejections };
  }

  if (e.command === "MAIL FROM") {
    // RFC 1870: 552 to MAIL FROM ... SIZE= is about the message; nodemailer's own size check has no code.
    if (code === 552 || (e.code === "EMESSAGE" && code === undefined)) return { kind: "message", permanent: true, responseCode: code, rejections: [] };
    return { kind: "sender", permanent: false, responseCode: code, rejections: [] };
  }

  if (e.command === "DATA" || e.code === "EMESSAGE") {
    // EMESSAGE without a reply is nodemailer refusing to build or send the message itself.
    return { kind: "message", permanent: isPermanentReply(code) || code === undefined, responseCode: code, rejections: [] };
  }

  if (e.code === "EENVELOPE") {
    // Refused before talking to the server: no or syntactically impossible recipients, or a bad sender.
    if (/sender/i.test(e.message)) return { kind: "sender", permanent: false, rejections: [] };
    return { kind: "recipient", permanent: true, rejections: [] };
  }

  if ((e.code !== undefined && NETWORK_CODES.has(e.code)) || e.command === "CONN") {
    return { kind: "connection", permanent: false, responseCode: code, rejections: [] };
  }
  return { kind: "protocol", permanent: false, responseCode: code, rejections: [] };
}
