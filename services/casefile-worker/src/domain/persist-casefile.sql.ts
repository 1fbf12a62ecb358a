import type { LogRow } from "@esign/schema";
import {
  arrayOf,
  contactInsert,
  cteRows,
  defineStatement,
  idOrNotClaimable,
  logInsert,
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
  /** Its creationJobId is the statement's own (job.id, through the gate), its folderId `folder`'s. */
  caseFile: Insertable<DB["CaseFile"]> & { id: number; folderId?: never; creationJobId?: never };
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
 * statement of data-modifying CTEs, run on its own (autocommit): no BEGIN, no lock taken first, no
 * COMMIT of its own, one round trip. It answers which of its events some subscription wants.
 *
 * Exactly once per job: it writes only while the job is pending or processing (the "completed" CTE
 * and idOrNotClaimable, SQLSTATE EJ409 otherwise), and CaseFile.creationJobId is unique besides.
 *
 * Locks: the new rows only, the creation job's row (the UPDATE's, waiting for another run of the
 * same job until it ends, then reading the row again), and the folder's row FOR KEY SHARE (it
 * cannot be deleted until the case file is committed in it).
 * Contacts of an email another create is storing at the same moment wait for it on the unique
 * index, then are skipped.
 */
export const persistCaseFileSql = defineStatement(
  "persist-case-file",
  SAMPLE,
  (r: CaseFileRows) =>
    withCtes([
      // First: a CTE may name only those before it. Found only while the job is pending or
      // processing; its lock waits for another run of the job, which it then reads again.
      [
        "completed",
        qb
          .updateTable("CreationJob")
          .set((eb) => ({ status: "completed", result: r.job.result, errorMessage: null, retries: r.job.retries, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", r.job.id)
          .where("status", "in", ["pending", "processing"])
          .returning("id"),
      ],
      [
        "case_file",
        qb.insertInto("CaseFile").values({
          ...r.caseFile,
          // The gate: the job's id when "completed" found it, else an error that undoes every CTE.
          creationJobId: idOrNotClaimable("completed", r.job.id),
          ...(r.folder ? { folderId: folderOfCustomer(r.folder.id, r.caseFile.customerId) } : {}),
        }),
      ],
      ["documents", qb.insertInto("Document").values(r.documents)],
      r.ccRecipients.length > 0 && ["cc_recipients", qb.insertInto("CcRecipient").values(r.ccRecipients)],
      ["signers", qb.insertInto("Signer").values(r.signers)],
      r.links.length > 0 && ["links", qb.insertInto("SigningLink").values(r.links)],
      r.contacts.length > 0 && ["contacts", contactInsert(r.contacts)],
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
