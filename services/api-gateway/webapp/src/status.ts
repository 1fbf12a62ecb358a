import { CASE_FILE_STATUS, SIGNER_STATUS, type Signer } from "@esign/sdk/browser";
import type { Messages } from "./messages-en";

type CaseFileStatusName = keyof Messages["status"];

const CASE_FILE_NAMES: Record<number, CaseFileStatusName> = {
  [CASE_FILE_STATUS.new]: "draft",
  [CASE_FILE_STATUS.pending]: "pending",
  [CASE_FILE_STATUS.rejected]: "rejected",
  [CASE_FILE_STATUS.deleted]: "deleted",
  [CASE_FILE_STATUS.signed]: "signed",
  [CASE_FILE_STATUS.completed]: "completed",
  [CASE_FILE_STATUS.failed]: "failed",
  [CASE_FILE_STATUS.expired]: "expired",
};

export const caseFileStatusName = (status: number): CaseFileStatusName => CASE_FILE_NAMES[status] ?? "pending";

/** The archive's tabs and the statuses each lists. */
export const TABS = {
  drafts: { status: [CASE_FILE_STATUS.new] },
  pending: { status: [CASE_FILE_STATUS.pending] },
  completed: { status: [CASE_FILE_STATUS.signed, CASE_FILE_STATUS.completed] },
  rejected: { status: [CASE_FILE_STATUS.rejected, CASE_FILE_STATUS.failed] },
  expired: { status: [CASE_FILE_STATUS.expired] },
  deleted: { status: [CASE_FILE_STATUS.deleted] },
} as const;
export type Tab = keyof typeof TABS;

type SignerStatusName = keyof Messages["signerStatus"];

/** A signer's state from its signing request (sent, signed, ...) and Penneo's signer status (opened). */
export function signerStatusName(signer: Signer): SignerStatusName {
  const request = signer.signingRequest.status;
  if (request === SIGNER_STATUS.signed) return "signed";
  if (request === SIGNER_STATUS.rejected) return "rejected";
  if (request === SIGNER_STATUS.deleted) return "deleted";
  if (request === SIGNER_STATUS.undeliverable) return "undeliverable";
  if (request === SIGNER_STATUS.new) return "waiting";
  return signer.status === 1 || signer.status === 2 ? "opened" : "sent";
}
