import { encryptSecret, type Customer, type Tx } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS, signableDocumentsFor, type SigningLinkItem, type StoredFile, type StoredJobResult, type TCaseFile } from "@esign/schema";
import { resolveSecureMethods } from "./account-checks";
import { newSigningToken, signingLinkUrl } from "./signing-tokens";
import type { CreatedSnapshot } from "./schedule-send";
import { sendCreatedCaseFile } from "./send-casefile";
import type { RoundSigner } from "./signer-rounds";

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

/**
 * Writes the case file with its documents, signers, cc recipients and signing links in the caller's
 * transaction; sends it at once unless it is left unsent or scheduled.
 */
export async function persistCaseFile(
  tx: Tx,
  job: { id: string; customerId: number; userId: number },
  customer: Customer,
  cf: TCaseFile,
  files: readonly StoredFile[],
  opts: PersistOptions,
): Promise<Persisted> {
  const sendAt = fromUnix(cf.sendAt);
  const caseFile = await tx.caseFile.create({
    data: {
      customerId: job.customerId,
      userId: job.userId,
      creationJobId: job.id,
      title: cf.title,
      activate: cf.activateCaseFile,
      language: cf.language ?? null,
      metaData: cf.metaData ?? null,
      reference: cf.reference ?? null,
      folderId: cf.folderId ?? null,
      sendAt,
      expireAt: fromUnix(cf.expireAt),
      sensitiveData: cf.sensitiveData,
      visibilityMode: cf.visibilityMode,
      disableNotificationsOwner: cf.disableNotificationsOwner,
      disableEmailAttachments: cf.disableEmailAttachments,
      senderName: cf.senderName ? cf.senderName : null,
      signOnMeeting: cf.signOnMeeting,
    },
  });

  const byName = new Map(files.map((f) => [f.name, f]));
  await tx.document.createMany({
    data: cf.documents.map((d) => {
      const file = byName.get(d.name);
      if (!file) throw new Error(`document "${d.name}" has no stored file`);
      return {
        caseFileId: caseFile.id,
        title: d.title,
        name: d.name,
        signable: d.signable,
        roles: d.roles ?? [],
        documentOrder: d.documentOrder ?? null,
        metaData: d.metaData ?? null,
        fileSha256: file.sha256,
        size: file.size,
      };
    }),
  });

  if (cf.ccRecipients && cf.ccRecipients.length > 0) {
    await tx.ccRecipient.createMany({
      data: cf.ccRecipients.map((c) => ({ caseFileId: caseFile.id, name: c.name, email: c.email, storeAsContact: c.storeAsContact })),
    });
  }

  // All signers in one INSERT ... RETURNING (PostgreSQL returns the rows of a multi-row VALUES in
  // its order; checked below, since the links are matched to signers by position).
  const signers = await tx.signer.createManyAndReturn({
    data: cf.signers.map((s) => ({
      caseFileId: caseFile.id,
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
      activeAt: fromUnix(s.activeAt),
      expireAt: fromUnix(s.expireAt),
    })),
    select: { id: true, name: true, role: true },
  });
  // Two signers alike in name and role may only swap places, and then each still gets its own link.
  const inOrder = signers.length === cf.signers.length && signers.every((row, i) => row.name === cf.signers[i]!.name && row.role === cf.signers[i]!.role);
  if (!inOrder) throw new Error("signers were not returned in the order they were inserted");

  const links: SigningLinkItem[] = [];
  const linkRows: { signerId: number; tokenHash: string; tokenEnc: string }[] = [];
  for (const [i, s] of cf.signers.entries()) {
    const signer = signers[i]!;
    if (cf.activateCaseFile && signableDocumentsFor(cf.documents, s.role).length > 0) {
      const { token, tokenHash } = newSigningToken();
      linkRows.push({ signerId: signer.id, tokenHash, tokenEnc: encryptSecret(token, opts.encryptionKey) });
      links.push({ signerId: signer.id, name: signer.name, role: signer.role, signingLink: signingLinkUrl(opts.publicBaseUrl, token) });
    }
  }
  if (linkRows.length > 0) await tx.signingLink.createMany({ data: linkRows });

  const roundSigners: RoundSigner[] = cf.signers.map((s, i) => ({
    id: signers[i]!.id,
    signOrder: s.signOrder ?? 0,
    status: SIGNER_STATUS.new,
    activeAt: fromUnix(s.activeAt),
    expireAt: fromUnix(s.expireAt),
    expiredAt: null,
  }));
  const sendNow = cf.activateCaseFile && (sendAt === null || sendAt.getTime() <= opts.now.getTime());
  // The send may still decline (expireAt already past): the result reports what really happened.
  const activated = sendNow ? await sendCreatedCaseFile(tx, caseFile, roundSigners, opts.now) : undefined;
  const status = activated ? CASEFILE_STATUS.pending : CASEFILE_STATUS.new;
  const activatedIds = new Set(activated?.map((s) => s.id));
  return {
    caseFileId: caseFile.id,
    status,
    result: { caseFile: { id: caseFile.id, status }, signingLinksEnc: encryptSecret(JSON.stringify(links), opts.encryptionKey) },
    created: {
      caseFile: { id: caseFile.id, status, activate: caseFile.activate, expireAt: caseFile.expireAt, sendAt: caseFile.sendAt },
      signers: roundSigners.map((s) => (activatedIds.has(s.id) ? { ...s, status: SIGNER_STATUS.pending } : s)),
    },
  };
}
