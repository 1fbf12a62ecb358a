import {
  contactRows,
  encryptSecret,
  newSigningToken,
  isNotClaimable,
  runOne,
  type ContactPerson,
  type SqlPool,
  serializeEvents,
  signingLinkUrl,
  violatesUnique,
} from "@esign/db";
import {
  CASEFILE_STATUS,
  logRow,
  SIGNER_STATUS,
  signableDocumentsFor,
  signerEvent,
  signerRecord,
  type SigningLinkItem,
  type StoredFile,
  type StoredJobResult,
  type TCaseFile,
} from "@esign/schema";
import type { RelayableEvent } from "@esign/outbox-relay";
import type { AccountSettings } from "./account-checks";
import type { CreatedSnapshot } from "./schedule-send";
import { mayBeSent } from "./send-casefile";
import { planRound, type RoundSigner } from "./signer-rounds";
import { persistCaseFileSql } from "./persist-casefile.sql";

const fromUnix = (s: number | null | undefined) => (s === null || s === undefined ? null : new Date(s * 1000));

export interface PersistOptions {
  publicBaseUrl: string;
  encryptionKey: string;
  now: Date;
}

export interface Persisted {
  caseFileId: number;
  status: number;
  result: StoredJobResult;
  /** The state committed, for scheduling the case file's delayed jobs without reading it back. */
  created: CreatedSnapshot;
  /** The events written, unrelayed: once committed, the job publishes those no subscription wants (publishCommittedEvents). */
  events: RelayableEvent[];
}

/**
 * Who of the case file becomes the customer's contact: signers that ask for it (storeAsContact) and
 * have an email, and copy recipients unless they decline (their storeAsContact defaults to true);
 * signers first, in payload order (contactRows keeps the first of an email).
 */
function contactsToKeep(cf: TCaseFile): ContactPerson[] {
  const signers = cf.signers.flatMap((s) => (s.storeAsContact === true && s.email ? [{ name: s.name, email: s.email, onBehalfOf: s.onBehalfOf ?? null }] : []));
  const cc = (cf.ccRecipients ?? []).flatMap((c) => (c.storeAsContact ? [{ name: c.name, email: c.email }] : []));
  return [...signers, ...cc];
}

/** The creation job being turned into a case file, and the ids its claim drew for it (claimCreationJobSql). */
export interface CreationTarget {
  id: string;
  customerId: number;
  userId: number;
  /** BullMQ attempts made, kept on the job row. */
  retries: number;
  caseFileId: number;
  /** One per signer of the payload, ascending, in payload order. */
  signerIds: readonly number[];
}

/** Another run of the same job got there first (it completed, failed or aborted the job meanwhile). */
const anotherRunFinished = (err: unknown): boolean => isNotClaimable(err) || violatesUnique(err, "CaseFile_creationJobId_key");

/**
 * Writes the case file (in its folder while that is the customer's) with its documents, signers, cc
 * recipients, signing links and the contacts they become (storeAsContact), sends it at once
 * unless it is left unsent or scheduled (signers of the first round pending, one
 * `sign.signer.requestActivated` each), and marks the creation job completed with its result: ONE
 * autocommit statement, one round trip, on the pool. Through Prisma this was eleven
 * statements and ~15 ms of the worker's CPU per case file (bench/README.md); then a transaction of
 * two round trips (its lock and ids first). The ids are drawn beforehand, by the job's claim, so
 * that links, events and the result can name them. Null when the job is no longer pending or
 * processing (another run finished it): then nothing was written.
 */
export async function persistCaseFile(
  pool: SqlPool,
  job: CreationTarget,
  customer: AccountSettings,
  cf: TCaseFile,
  files: readonly StoredFile[],
  opts: PersistOptions,
): Promise<Persisted | null> {
  if (job.signerIds.length !== cf.signers.length) throw new Error("one signer id is needed per signer");
  const now = opts.now;
  const sendAt = fromUnix(cf.sendAt);
  const expireAt = fromUnix(cf.expireAt);
  const signers: RoundSigner[] = cf.signers.map((s, i) => ({
    id: job.signerIds[i]!,
    signOrder: s.signOrder ?? 0,
    status: SIGNER_STATUS.new,
    activeAt: fromUnix(s.activeAt),
    expireAt: fromUnix(s.expireAt),
    expiredAt: null,
  }));
  // The send may still decline (expireAt already past): the result reports what really happened.
  const sendNow = cf.activateCaseFile && (sendAt === null || sendAt.getTime() <= now.getTime()) && mayBeSent({ status: CASEFILE_STATUS.new, expireAt }, now);
  const status = sendNow ? CASEFILE_STATUS.pending : CASEFILE_STATUS.new;
  const activated = new Set(sendNow ? planRound(signers, now).activateNow.map((s) => s.id) : []);
  const committedSigners = signers.map((s) => (activated.has(s.id) ? { ...s, status: SIGNER_STATUS.pending } : s));

  const byName = new Map(files.map((f) => [f.name, f]));
  const documents = cf.documents.map((d) => {
    const file = byName.get(d.name);
    if (!file) throw new Error(`document "${d.name}" has no stored file`);
    return {
      title: d.title,
      name: d.name,
      signable: d.signable,
      roles: d.roles ?? [],
      documentOrder: d.documentOrder ?? null,
      metaData: d.metaData ?? null,
      fileSha256: file.sha256,
      size: file.size,
      pageCount: file.pages ?? null,
    };
  });

  const links: SigningLinkItem[] = [];
  const linkRows: { signerId: number; tokenHash: string; tokenEnc: string }[] = [];
  cf.signers.forEach((s, i) => {
    const id = job.signerIds[i]!;
    if (cf.activateCaseFile && signableDocumentsFor(cf.documents, s.role).length > 0) {
      const { token, tokenHash } = newSigningToken();
      linkRows.push({ signerId: id, tokenHash, tokenEnc: encryptSecret(token, opts.encryptionKey) });
      links.push({ signerId: id, name: s.name, role: s.role, signingLink: signingLinkUrl(opts.publicBaseUrl, token) });
    }
  });
  const result: StoredJobResult = { caseFile: { id: job.caseFileId, status }, signingLinksEnc: encryptSecret(JSON.stringify(links), opts.encryptionKey) };

  // Signers in payload order, so the events' seq follows it.
  const events = serializeEvents(
    signers
      .filter((s) => activated.has(s.id))
      .map((s) => signerEvent({ id: job.caseFileId, customerId: job.customerId }, status, s.id, "sign.signer.requestActivated")),
  );
  let written: { subscribed: string[] } | undefined;
  try {
    written = await runOne(pool, persistCaseFileSql, {
      caseFile: {
        id: job.caseFileId,
        customerId: job.customerId,
        userId: job.userId,
        title: cf.title,
        status,
        activate: cf.activateCaseFile,
        language: cf.language ?? null,
        metaData: cf.metaData ?? null,
        reference: cf.reference ?? null,
        sendAt,
        expireAt,
        sensitiveData: cf.sensitiveData,
        visibilityMode: cf.visibilityMode,
        disableNotificationsOwner: cf.disableNotificationsOwner,
        disableEmailAttachments: cf.disableEmailAttachments,
        senderName: cf.senderName ? cf.senderName : null,
        signOnMeeting: cf.signOnMeeting,
        sentAt: sendNow ? now : null,
        updatedAt: now,
      },
      ...(cf.folderId !== undefined ? { folder: { id: cf.folderId } } : {}),
      contacts: contactRows(job.customerId, contactsToKeep(cf)),
      documents: documents.map((d) => ({ caseFileId: job.caseFileId, ...d })),
      ccRecipients: (cf.ccRecipients ?? []).map((c) => ({ caseFileId: job.caseFileId, name: c.name, email: c.email, storeAsContact: c.storeAsContact })),
      signers: cf.signers.map((s, i) => {
        // The same columns as a signer added to a draft later (@esign/schema's signerRecord).
        const record = signerRecord(s, customer, (id) => encryptSecret(id, opts.encryptionKey));
        return {
          ...record,
          id: job.signerIds[i]!,
          caseFileId: job.caseFileId,
          notification: JSON.stringify(record.notification),
          status: committedSigners[i]!.status,
          activatedAt: activated.has(job.signerIds[i]!) ? now : null,
          updatedAt: now,
        };
      }),
      links: linkRows,
      job: { id: job.id, result: JSON.stringify(result), retries: job.retries },
      // The API user's request made it (and sent it, when it went out at once).
      log: (sendNow ? (["created", "sent"] as const) : (["created"] as const)).map((event) =>
        logRow({ customerId: job.customerId, caseFileId: job.caseFileId, event, audit: { actor: "user", userId: job.userId } }),
      ),
      events,
    });
  } catch (err) {
    if (anotherRunFinished(err)) return null;
    throw err;
  }
  const subscribed = new Set(written?.subscribed ?? []);

  return {
    caseFileId: job.caseFileId,
    status,
    result,
    created: { caseFile: { id: job.caseFileId, status, activate: cf.activateCaseFile, expireAt, sendAt }, signers: committedSigners },
    // The payload as the relay would read it back from the row (JSON), not the object it was built from.
    events: events.map((e) => ({
      id: e.id,
      customerId: e.customerId,
      eventType: e.eventType,
      payload: JSON.parse(e.payloadJson),
      hasSubscribers: subscribed.has(e.id),
    })),
  };
}
