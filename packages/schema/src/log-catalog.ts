import type { LogActor, LogAudit } from "./audit";
import type { CaseFileEventType, NewEvent, SignerEventType } from "./event-catalog";
import type { EventType } from "./events";

/*
 * The event log of a case file and of each signer (Penneo's `log` resource, read by sdk-net's
 * Signer.GetEventLog and sdk-php's getEventLog as `{id, eventType, eventTime}` with an INTEGER
 * eventType). Penneo publishes no codes: these are ours, documented in docs/penneo-compatibility.md,
 * and every entry also carries its name (`event`) so that nobody needs the table to read it.
 *
 * Every webhook event of a case file or signer is also a log entry (written in the same statement as
 * the outbox row: packages/db's emitEvents), so the log cannot miss one; what has no webhook event
 * (a case file sent, a signer edited, a request resent) is written with recordLog.
 */

export const SIGNER_LOG_CODES = {
  requestSent: 1,
  requestOpened: 2,
  opened: 3,
  signed: 4,
  rejected: 5,
  reminderSent: 6,
  undeliverable: 7,
  requestActivated: 8,
  finalized: 9,
  deleted: 10,
  requestResent: 11,
  edited: 12,
  transientBounce: 13,
  added: 14,
  /** signOnMeeting: the signer's link went to the case file's creator (no mail to the signer). */
  linkSentToCreator: 15,
} as const;

export const CASEFILE_LOG_CODES = {
  created: 100,
  sent: 101,
  activated: 102,
  completed: 103,
  expired: 104,
  deleted: 105,
  restored: 106,
  folderChanged: 107,
  edited: 108,
  failed: 109,
  rejected: 110,
  purged: 111,
} as const;

export type SignerLogEvent = keyof typeof SIGNER_LOG_CODES;
export type CaseFileLogEvent = keyof typeof CASEFILE_LOG_CODES;

/** One entry to write: a signer's (signerId set, a signer event) or the case file's. */
export type NewLogEntry = {
  customerId: number;
  caseFileId: number;
  audit?: LogAudit;
  /** What changed, why: shown as is (no secrets, no national ids). */
  detail?: Record<string, string | number | boolean | null | string[]>;
} & ({ signerId: number; event: SignerLogEvent } | { signerId?: undefined; event: CaseFileLogEvent });

/** The log name of each webhook event type that is also a log entry (signedWithImageUploadAndNAP is part of "signed"). */
const SIGNER_EVENT_LOG: Partial<Record<SignerEventType, SignerLogEvent>> = {
  "sign.signer.requestActivated": "requestActivated",
  "sign.signer.requestSent": "requestSent",
  "sign.signer.reminderSent": "reminderSent",
  "sign.signer.requestOpened": "requestOpened",
  "sign.signer.undeliverable": "undeliverable",
  "sign.signer.opened": "opened",
  "sign.signer.rejected": "rejected",
  "sign.signer.signed": "signed",
  "sign.signer.finalized": "finalized",
  "sign.signer.deleted": "deleted",
  "sign.signer.transientBounce": "transientBounce",
};
const CASEFILE_EVENT_LOG: Record<CaseFileEventType, CaseFileLogEvent> = {
  "sign.casefile.completed": "completed",
  "sign.casefile.expired": "expired",
  "sign.casefile.failed": "failed",
  "sign.casefile.rejected": "rejected",
};

export interface LogRow {
  customerId: number;
  caseFileId: number;
  signerId: number | null;
  code: number;
  event: string;
  actor: LogActor;
  userId: number | null;
  ip: string | null;
  userAgent: string | null;
  detailJson: string | null;
}

const auditColumns = (audit: LogAudit | undefined) => ({
  actor: audit?.actor ?? "system",
  userId: audit?.userId ?? null,
  ip: audit?.ip ?? null,
  userAgent: audit?.userAgent ?? null,
});

/** The row of a log entry, as the statement that writes it takes it. */
export function logRow(entry: NewLogEntry): LogRow {
  const code = entry.signerId === undefined ? CASEFILE_LOG_CODES[entry.event] : SIGNER_LOG_CODES[entry.event];
  return {
    customerId: entry.customerId,
    caseFileId: entry.caseFileId,
    signerId: entry.signerId ?? null,
    code,
    event: entry.event,
    ...auditColumns(entry.audit),
    detailJson: entry.detail ? JSON.stringify(entry.detail) : null,
  };
}

/** The log row of a webhook event, or null when the event is not one (the test event, the image-upload variant). */
export function eventLogRow(event: NewEvent<EventType>): LogRow | null {
  if (event.topic === "casefile") {
    const payload = event.payload as { id: number };
    const name = CASEFILE_EVENT_LOG[event.eventType as CaseFileEventType];
    return logRow({ customerId: event.customerId, caseFileId: payload.id, event: name, audit: event.audit });
  }
  if (event.topic === "signer") {
    const payload = event.payload as { id: number; caseFile: { id: number } };
    const name = SIGNER_EVENT_LOG[event.eventType as SignerEventType];
    return name ? logRow({ customerId: event.customerId, caseFileId: payload.caseFile.id, signerId: payload.id, event: name, audit: event.audit }) : null;
  }
  return null;
}
