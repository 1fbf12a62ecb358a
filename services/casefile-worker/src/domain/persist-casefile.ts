import { encryptSecret, eventInsertSql, notifyIfAnySql, SqlParams, type SqlClient } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS, signableDocumentsFor, signerEvent, type SigningLinkItem, type StoredFile, type StoredJobResult, type TCaseFile } from "@esign/schema";
import { resolveSecureMethods, type AccountSettings } from "./account-checks";
import { newSigningToken, signingLinkUrl } from "./signing-tokens";
import type { CreatedSnapshot } from "./schedule-send";
import { mayBeSent } from "./send-casefile";
import { planRound, type RoundSigner } from "./signer-rounds";

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
}

/** The creation job being turned into a case file, and the ids drawn for it (see lockAndAllocate). */
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

/**
 * Locks the creation job row and draws the ids the case file and its signers will have, in one round
 * trip; the caller's transaction must go on only when the status is still pending or processing (a
 * second run of a committed job finds it completed). Ids drawn for a run that goes no further are
 * gaps, as a rolled-back insert leaves.
 */
export async function lockAndAllocate(client: SqlClient, creationJobId: string, signerCount: number): Promise<{ status: string; caseFileId: number; signerIds: number[] } | undefined> {
  const { rows } = await client.query<{ status: string; caseFileId: string; signerIds: string[] }>(
    `SELECT status::text AS status,
            nextval(pg_get_serial_sequence('"CaseFile"', 'id')) AS "caseFileId",
            ARRAY(SELECT nextval(pg_get_serial_sequence('"Signer"', 'id')) FROM generate_series(1, $2::int)) AS "signerIds"
       FROM "CreationJob" WHERE id = $1::uuid FOR UPDATE`,
    [creationJobId, signerCount],
  );
  const row = rows[0];
  if (!row) return undefined;
  return { status: row.status, caseFileId: Number(row.caseFileId), signerIds: row.signerIds.map(Number).sort((a, b) => a - b) };
}

/**
 * Writes the case file with its documents, signers, cc recipients and signing links, sends it at once
 * unless it is left unsent or scheduled (signers of the first round pending, one
 * `sign.signer.requestActivated` each), and marks the creation job completed with its result: ONE
 * statement, in the caller's transaction. Through Prisma this was eleven statements and ~15 ms of
 * the worker's CPU per case file (bench/README.md); the ids are drawn beforehand (lockAndAllocate)
 * so that links, events and the result can name them.
 */
export async function persistCaseFile(client: SqlClient, job: CreationTarget, customer: AccountSettings, cf: TCaseFile, files: readonly StoredFile[], opts: PersistOptions): Promise<Persisted> {
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
    return { title: d.title, name: d.name, signable: d.signable, roles: d.roles ?? [], documentOrder: d.documentOrder ?? null, metaData: d.metaData ?? null, fileSha256: file.sha256, size: file.size, pageCount: file.pages ?? null };
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

  const p = new SqlParams();
  const caseFileId = p.add(job.caseFileId, "int");
  // Signers in payload order, so the events' seq follows it.
  const events = signers.filter((s) => activated.has(s.id)).map((s) => signerEvent({ id: job.caseFileId, customerId: job.customerId }, status, s.id, "sign.signer.requestActivated"));
  const eventInsert = events.length > 0 ? eventInsertSql(events, p) : undefined;
  const json = (rows: unknown[]) => p.add(JSON.stringify(rows), "jsonb");

  await client.query(
    `WITH
     case_file AS (
       INSERT INTO "CaseFile" (id, "customerId", "userId", "creationJobId", title, status, activate, language, "metaData", reference, "folderId",
                               "sendAt", "expireAt", "sensitiveData", "visibilityMode", "disableNotificationsOwner", "disableEmailAttachments",
                               "senderName", "signOnMeeting", "sentAt", "updatedAt")
       VALUES (${caseFileId}, ${p.add(job.customerId, "int")}, ${p.add(job.userId, "int")}, ${p.add(job.id, "uuid")}, ${p.add(cf.title)}, ${p.add(status, "int")},
               ${p.add(cf.activateCaseFile, "boolean")}, ${p.add(cf.language ?? null)}, ${p.add(cf.metaData ?? null)}, ${p.add(cf.reference ?? null)},
               ${p.add(cf.folderId ?? null, "int")}, ${p.add(sendAt?.toISOString() ?? null, "timestamptz")}, ${p.add(expireAt?.toISOString() ?? null, "timestamptz")},
               ${p.add(cf.sensitiveData, "boolean")}, ${p.add(cf.visibilityMode, "int")}, ${p.add(cf.disableNotificationsOwner, "boolean")},
               ${p.add(cf.disableEmailAttachments, "boolean")}, ${p.add(cf.senderName ? cf.senderName : null)}, ${p.add(cf.signOnMeeting, "boolean")},
               ${sendNow ? p.add(now.toISOString(), "timestamptz") : "NULL"}, now())),
     documents AS (
       INSERT INTO "Document" ("caseFileId", title, name, signable, roles, "documentOrder", "metaData", "fileSha256", size, "pageCount")
       SELECT ${caseFileId}, d->>'title', d->>'name', (d->>'signable')::boolean, ARRAY(SELECT jsonb_array_elements_text(d->'roles')),
              (d->>'documentOrder')::int, d->>'metaData', d->>'fileSha256', (d->>'size')::int, (d->>'pageCount')::int
       FROM jsonb_array_elements(${json(documents)}) WITH ORDINALITY AS t(d, n) ORDER BY n),
     cc_recipients AS (
       INSERT INTO "CcRecipient" ("caseFileId", name, email, "storeAsContact")
       SELECT ${caseFileId}, c->>'name', c->>'email', (c->>'storeAsContact')::boolean
       FROM jsonb_array_elements(${json((cf.ccRecipients ?? []).map((c) => ({ name: c.name, email: c.email, storeAsContact: c.storeAsContact })))}) WITH ORDINALITY AS t(c, n) ORDER BY n),
     signers AS (
       INSERT INTO "Signer" (id, "caseFileId", name, email, channel, cpr, cvr, "socialSecurityNumber", vatin, role, "onBehalfOf", "signOrder", "ssnType",
                             "accessControl", "successUrl", "failUrl", language, "enableInsecureSigning", "insecureSigningMethods", "secureSigningMethods",
                             "storeAsContact", notification, "activeAt", "expireAt", status, "activatedAt", "updatedAt")
       SELECT (s->>'id')::int, ${caseFileId}, s->>'name', s->>'email', s->>'channel', s->>'cpr', s->>'cvr', s->>'socialSecurityNumber', s->>'vatin',
              s->>'role', s->>'onBehalfOf', (s->>'signOrder')::int, s->>'ssnType', (s->>'accessControl')::boolean, s->>'successUrl', s->>'failUrl',
              s->>'language', (s->>'enableInsecureSigning')::boolean, ARRAY(SELECT jsonb_array_elements_text(s->'insecureSigningMethods')),
              ARRAY(SELECT jsonb_array_elements_text(s->'secureSigningMethods')), (s->>'storeAsContact')::boolean, s->'notification',
              (s->>'activeAt')::timestamptz, (s->>'expireAt')::timestamptz, (s->>'status')::int, (s->>'activatedAt')::timestamptz, now()
       FROM jsonb_array_elements(${json(
         cf.signers.map((s, i) => ({
           id: job.signerIds[i],
           name: s.name,
           email: s.email ?? null,
           channel: s.channel,
           cpr: s.cpr ?? null,
           cvr: s.cvr ?? null,
           socialSecurityNumber: s.socialSecurityNumberPlain ?? null,
           vatin: s.vatin ?? null,
           role: s.role,
           onBehalfOf: s.onBehalfOf ?? null,
           signOrder: s.signOrder ?? 0,
           ssnType: s.ssnType ?? null,
           accessControl: s.accessControl ?? false,
           successUrl: s.successUrl ?? null,
           failUrl: s.failUrl ?? null,
           language: s.language ?? null,
           enableInsecureSigning: s.enableInsecureSigning ?? false,
           insecureSigningMethods: s.insecureSigningMethods ?? [],
           secureSigningMethods: resolveSecureMethods(customer, s.secureSigningMethods),
           storeAsContact: s.storeAsContact ?? false,
           notification: {
             emailFormat: s.emailFormat ?? null,
             emailSubject: s.emailSubject ?? null,
             emailText: s.emailText ?? null,
             reminderInterval: s.reminderInterval ?? null,
             reminderEmailSubject: s.reminderEmailSubject ?? null,
             reminderEmailText: s.reminderEmailText ?? null,
             completedEmailSubject: s.completedEmailSubject ?? null,
             completedEmailText: s.completedEmailText ?? null,
           },
           activeAt: committedSigners[i]!.activeAt?.toISOString() ?? null,
           expireAt: committedSigners[i]!.expireAt?.toISOString() ?? null,
           status: committedSigners[i]!.status,
           activatedAt: activated.has(job.signerIds[i]!) ? now.toISOString() : null,
         })),
       )}) WITH ORDINALITY AS t(s, n) ORDER BY n),
     links AS (
       INSERT INTO "SigningLink" ("signerId", "tokenHash", "tokenEnc")
       SELECT (l->>'signerId')::int, l->>'tokenHash', l->>'tokenEnc' FROM jsonb_array_elements(${json(linkRows)}) AS t(l)),
     completed AS (
       UPDATE "CreationJob" SET status = 'completed', result = ${p.add(JSON.stringify(result), "jsonb")}, "errorMessage" = NULL,
                                retries = ${p.add(job.retries, "int")}, "updatedAt" = now()
       WHERE id = ${p.add(job.id, "uuid")})
     ${eventInsert ? `, events AS (${eventInsert.sql}) ${notifyIfAnySql("events")}` : "SELECT 1"}`,
    p.values,
  );

  return {
    caseFileId: job.caseFileId,
    status,
    result,
    created: { caseFile: { id: job.caseFileId, status, activate: cf.activateCaseFile, expireAt, sendAt }, signers: committedSigners },
  };
}
