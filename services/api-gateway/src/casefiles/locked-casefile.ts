import { lockCaseFileRow, lockSignerRow, runOne, type CaseFile, type Tx } from "@esign/db";
import { AppError } from "@esign/errors";
import { CASEFILE_STATUS } from "@esign/schema";
import { caseFileNotFound } from "./owned-casefile";

/*
 * The row locks of a change to a case file, its signers or its recipients, in the order every writer
 * takes them (the case file row, then the signer's: packages/db row-locks.sql.ts), and the answers of
 * a change the case file's state does not allow. A file making such a change with Prisma's model API
 * calls these and keeps its own convention (packages/db README: "Calls into other files").
 */

export const signerNotFound = () => new AppError("not_found", "Signer not found");

/** Locks the customer's case file for the rest of the transaction; another customer's is not found. */
export async function lockOwnedCaseFile(tx: Tx, customerId: number, id: number): Promise<CaseFile> {
  const cf = await runOne(tx, lockCaseFileRow, { id, customerId });
  if (!cf) throw caseFileNotFound();
  return cf;
}

/** Locks a signer of a locked case file; a signer of another case file is not found. */
export async function lockSignerOf(tx: Tx, caseFileId: number, signerId: number): Promise<void> {
  if (!(await runOne(tx, lockSignerRow, { id: signerId, caseFileId }))) throw signerNotFound();
}

const STATUS_NAMES: Record<number, string> = Object.fromEntries(Object.entries(CASEFILE_STATUS).map(([name, n]) => [n, name]));

/** The case file's status in words, for the messages of a refused change. */
export const caseFileStatusName = (status: number): string => `${STATUS_NAMES[status] ?? "unknown"} (status ${status})`;

/** A case file whose signing has ended or was withdrawn: nothing about it changes any more. */
export const isClosed = (status: number): boolean => status !== CASEFILE_STATUS.new && status !== CASEFILE_STATUS.pending;

/** 409 for a change a case file in this state does not take (`what` names the change: "Copy recipients can only be added"). */
export function closedCaseFile(cf: Pick<CaseFile, "status">, what: string): AppError {
  return new AppError("conflict", `${what} while the case file is new or pending; this one is ${caseFileStatusName(cf.status)}`);
}
