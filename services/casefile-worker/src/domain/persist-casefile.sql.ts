import type { LogRow } from "@esign/schema";
import {
  arrayOf,
  contactInsert,
  cteRows,
  defineStatement,
  literalInt,
  literalUuid,
  logInsert,
  nextId,
  nextIds,
  notifyOutboxIfAny,
  qb,
  serializedEventInsert,
  typedArray,
  withCtes,
  type ContactRow,
  type DB,
  type Insertable,
  type SerializedEvent,
} from "@esign/db";
import { subscribedEventsIn } from "@esign/outbox-relay";

/** The rows of one case file, as persistCaseFile writes them in one statement. */
export interface CaseFileRows {
  caseFile: Insertable<DB["CaseFile"]> & { id: number; folderId?: never };
  /**
   * The folder the payload names: set as the case file's only while it is a folder of the case
   * file's customer (a folder deleted since the create was accepted leaves it without one).
   */
  folder?: { id: number };
  /** The signers and cc recipients kept as the customer's contacts (storeAsContact), one per email. */
  contacts: ContactRow[];
  documents: Insertable<DB["Document"]>[];
  ccRecipients: Insertable<DB["CcRecipient"]>[];
  signers: (Insertable<DB["Signer"]> & { id: number })[];
  links: Insertable<DB["SigningLink"]>[];
  job: { id: string; result: string; retries: number };
  /** The case file's own log entries (created, sent), written before the events' entries. */
  log: LogRow[];
  /**
   * Written after the rows, in this order (serializeEvents). The statement answers which of them
   * some subscription wants ("subscribed") and NOTIFYs the relay only for those: the job publishes
   * the others itself once committed (publishCommittedEvents).
   */
  events: SerializedEvent[];
}

/**
 * Locks the creation job row and draws the ids the case file and its signers will have (see
 * lockAndAllocate); answers the job's status as locked. The job's id and the signer count are
 * pasted as literals, so that the statement has no parameters and is the transaction's opening:
 * it travels with BEGIN, one round trip for both (compiled once per signer count, each id pasted in:
 * reuse "pasted").
 *
 * Locks: the CreationJob row (FOR UPDATE) until the transaction ends: a second run of the same job
 * (a stalled worker's) waits, then finds it completed and makes nothing. Drawing from the sequences
 * locks nothing (an id drawn by a rolled-back run is skipped, never reused).
 */
export const lockAndAllocateSql = defineStatement(
  "lock-creation-job-and-allocate-ids",
  { creationJobId: "00000000-0000-4000-8000-000000000000", signerCount: 2 },
  (a) =>
    qb
      .selectFrom("CreationJob")
      .select((eb) => [
        eb.cast<string>("status", "text").as("status"),
        nextId("CaseFile").as("caseFileId"),
        nextIds("Signer", literalInt(a.signerCount)).as("signerIds"),
      ])
      .where("id", "=", literalUuid(a.creationJobId))
      .forUpdate(),
  { reuse: "pasted" },
);

const SAMPLE_LOG: LogRow = {
  customerId: 1,
  caseFileId: 1,
  signerId: 1,
  code: 8,
  event: "requestActivated",
  actor: "system",
  userId: null,
  ip: null,
  userAgent: null,
  detailJson: null,
};

const SAMPLE: CaseFileRows = {
  caseFile: {
    id: 1,
    customerId: 1,
    userId: 1,
    creationJobId: "00000000-0000-4000-8000-000000000000",
    title: "t",
    status: 1,
    sentAt: new Date(),
    updatedAt: new Date(),
  },
  documents: [{ caseFileId: 1, title: "t", name: "a.pdf", signable: true, roles: ["signer"], fileSha256: "0".repeat(64), size: 1, pageCount: 1 }],
  folder: { id: 1 },
  contacts: [{ customerId: 1, name: "n", email: "e@example.com", onBehalfOf: null }],
  ccRecipients: [{ caseFileId: 1, name: "n", email: "e@example.com", storeAsContact: false }],
  signers: [
    { id: 1, caseFileId: 1, name: "n", role: "signer", insecureSigningMethods: ["text"], secureSigningMethods: [], notification: "{}", updatedAt: new Date() },
  ],
  links: [{ signerId: 1, tokenHash: "h", tokenEnc: "e" }],
  job: { id: "00000000-0000-4000-8000-000000000000", result: "{}", retries: 0 },
  log: [{ ...SAMPLE_LOG, signerId: null, code: 100, event: "created", actor: "user", userId: 1 }],
  events: [
    {
      id: "00000000-0000-4000-8000-000000000000",
      customerId: 1,
      topic: "signer",
      eventType: "sign.signer.requestActivated",
      payloadJson: "{}",
      targetSubscriptionId: null,
      log: SAMPLE_LOG,
    },
  ],
};

/**
 * The folder's id while it is a folder of this customer, else NULL. FOR KEY SHARE: a delete of the
 * folder that is under way is waited for, and then the folder is gone (NULL), rather than the
 * foreign key failing the create.
 */
const folderOfCustomer = (folderId: number, customerId: number) =>
  qb.selectFrom("Folder").select("id").where("id", "=", folderId).where("customerId", "=", customerId).forKeyShare().$asScalar();

/**
 * The case file with its documents, cc recipients, signers and signing links, the creation job
 * marked completed with its result, the contacts kept (storeAsContact), the events, and the log (the
 * case file's entries, then the events', in one insert so that their ids keep that order): one
 * statement of data-modifying CTEs. It answers which of its events some subscription wants.
 *
 * Locks: the new rows only, the creation job's row, already locked by lockAndAllocateSql, and the
 * folder's row FOR KEY SHARE (it cannot be deleted until the case file is committed in it).
 * Contacts of an email another create is storing at the same moment wait for it on the unique
 * index, then are skipped.
 */
export const persistCaseFileSql = defineStatement(
  "persist-case-file",
  SAMPLE,
  (r: CaseFileRows) =>
    withCtes([
      [
        "case_file",
        qb.insertInto("CaseFile").values(r.folder ? { ...r.caseFile, folderId: folderOfCustomer(r.folder.id, r.caseFile.customerId) } : r.caseFile),
      ],
      ["documents", qb.insertInto("Document").values(r.documents)],
      r.ccRecipients.length > 0 && ["cc_recipients", qb.insertInto("CcRecipient").values(r.ccRecipients)],
      ["signers", qb.insertInto("Signer").values(r.signers)],
      r.links.length > 0 && ["links", qb.insertInto("SigningLink").values(r.links)],
      r.contacts.length > 0 && ["contacts", contactInsert(r.contacts)],
      [
        "completed",
        qb
          .updateTable("CreationJob")
          .set((eb) => ({ status: "completed", result: r.job.result, errorMessage: null, retries: r.job.retries, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", r.job.id),
      ],
      r.events.length > 0 && ["events", serializedEventInsert(r.events).returning(["customerId", "eventType", "targetSubscriptionId"])],
      ["log", logInsert([...r.log, ...r.events.flatMap((e) => (e.log ? [e.log] : []))])],
      r.events.length > 0 && ["wanted", subscribedEventsIn("events")],
    ]).selectNoFrom(
      r.events.length > 0
        ? [arrayOf(qb.selectFrom(cteRows<{ id: string }, "w">("wanted", "w")).select("w.id")).as("subscribed"), notifyOutboxIfAny("wanted").as("notified")]
        : [typedArray<string>([], "uuid").as("subscribed")],
    ),
  // The text depends only on how many rows of each kind there are: compiled once per such shape.
  { reuse: "shape" },
);
