import { defineStatement, qb, type DB, type Insertable, type Updateable } from "@esign/db";

/*
 * The statements of the archive's writes (casefile-actions.ts): a draft sent or activated, a case
 * file changed or restored. Each transaction locks the case file row first (lockCaseFileRow: the
 * order every writer of a case file keeps), then reads and writes under that lock.
 */

const ID = 1;

/**
 * The signers of a case file with what a send needs to know of them, and whether each has a link.
 *
 * Locks: nothing: the case file's lock, held by the caller, keeps every writer of its signers out.
 */
export const signersForSendSql = defineStatement(
  "signers-for-send",
  { caseFileId: ID },
  ({ caseFileId }) =>
    qb
      .selectFrom("Signer as s")
      .leftJoin("SigningLink as l", "l.signerId", "s.id")
      .select(["s.id", "s.name", "s.status", "s.channel", "s.email", "s.cprEnc", "s.cvr", "s.role", "s.secureSigningMethods", "l.id as linkId"])
      .where("s.caseFileId", "=", caseFileId)
      .orderBy("s.id"),
  { reuse: "shape" },
);

/**
 * What the customer's account has enabled, read at the time of a send.
 *
 * Locks: nothing: account settings are read as committed.
 */
export const customerAccountSql = defineStatement(
  "customer-account-for-send",
  { customerId: ID },
  ({ customerId }) => qb.selectFrom("Customer").select(["eboksEnabled", "secureSigningMethods"]).where("id", "=", customerId),
  { reuse: "shape" },
);

/**
 * A draft sent (or activated: `sendSigningRequests` false): to be sent at its sendAt by the
 * casefile-worker's send job, as a case file sent at create with a sendAt.
 *
 * Locks: nothing more (the case file row is locked by the caller).
 */
export const markDraftSentSql = defineStatement(
  "mark-draft-sent",
  { caseFileId: ID, sendSigningRequests: true, sendAt: new Date(0) },
  ({ caseFileId, sendSigningRequests, sendAt }) =>
    qb
      .updateTable("CaseFile")
      .set((eb) => ({ activate: true, sendSigningRequests, sendAt, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", caseFileId),
  { reuse: "shape" },
);

/**
 * The signing links of a draft's signers, made when it is sent or activated (a draft has none).
 *
 * Locks: the new rows only (the case file row is locked by the caller).
 */
export const insertSigningLinksSql = defineStatement(
  "insert-signing-links",
  { links: [{ signerId: ID, tokenHash: "h", tokenEnc: "e" }] as Insertable<DB["SigningLink"]>[] },
  ({ links }) => qb.insertInto("SigningLink").values(links),
  { reuse: "shape" },
);

/**
 * A case file back from the recycle bin to the status it had.
 *
 * Locks: nothing more (the case file row is locked by the caller).
 */
export const restoreCaseFileSql = defineStatement(
  "restore-case-file",
  { caseFileId: ID, status: 1 },
  ({ caseFileId, status }) =>
    qb
      .updateTable("CaseFile")
      .set((eb) => ({ status, deletedAt: null, deletedFromStatus: null, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", caseFileId),
  { reuse: "shape" },
);

/** The case file's own fields a PUT may change. */
export type CaseFileFields = Pick<
  Updateable<DB["CaseFile"]>,
  | "title"
  | "language"
  | "metaData"
  | "reference"
  | "sendAt"
  | "expireAt"
  | "visibilityMode"
  | "sensitiveData"
  | "disableNotificationsOwner"
  | "disableEmailAttachments"
  | "signOnMeeting"
>;

/**
 * A draft's fields changed (PUT). Built per call: which columns change decides the text.
 *
 * Locks: nothing more (the case file row is locked by the caller).
 */
export const updateCaseFileFieldsSql = defineStatement(
  "update-case-file-fields",
  { caseFileId: ID, fields: { title: "t", sendAt: new Date(0), signOnMeeting: false } as CaseFileFields },
  ({ caseFileId, fields }) =>
    qb
      .updateTable("CaseFile")
      .set((eb) => ({ ...fields, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", caseFileId),
);
