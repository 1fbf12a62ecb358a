import type { CaseFile, CcRecipient, Document, Signer } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import type { FullCaseFile } from "./owned-casefile";
import {
  type CaseFileView,
  type CopyRecipientView,
  type DocumentView,
  PENNEO_SIGNER_STATUS,
  type SignerView,
  type SigningRequestView,
} from "./casefile-schemas";

/** Unix seconds; undefined (left out of the JSON) when unset: sdk-net reads a null date as 1970. */
const unix = (d: Date | null): number | undefined => (d ? Math.floor(d.getTime() / 1000) : undefined);

// The status columns are plain integers that only the constants of @esign/schema ever write.
const caseFileStatus = (n: number) => n as CaseFileView["status"];
const signingRequestStatus = (n: number) => n as SigningRequestView["status"];

export function penneoSignerStatus(s: Pick<Signer, "status" | "openedAt" | "requestOpenedAt">): SignerView["status"] {
  switch (s.status) {
    case SIGNER_STATUS.signed:
      return PENNEO_SIGNER_STATUS.signed;
    case SIGNER_STATUS.rejected:
      return PENNEO_SIGNER_STATUS.rejected;
    case SIGNER_STATUS.pending:
    case SIGNER_STATUS.undeliverable:
      if (s.openedAt) return PENNEO_SIGNER_STATUS.opened;
      return s.requestOpenedAt ? PENNEO_SIGNER_STATUS.requestOpened : PENNEO_SIGNER_STATUS.requestSent;
    default:
      return null;
  }
}

/** Penneo's DocumentStatus (sdk-net) follows the case file; an expired case file has no such code. */
const DOCUMENT_STATUS: Partial<Record<number, number>> = {
  [CASEFILE_STATUS.new]: 0,
  [CASEFILE_STATUS.pending]: 1,
  [CASEFILE_STATUS.rejected]: 2,
  [CASEFILE_STATUS.deleted]: 3,
  [CASEFILE_STATUS.signed]: 4,
  [CASEFILE_STATUS.completed]: 5,
  [CASEFILE_STATUS.failed]: 7,
};

/** Signer.notification (JSON, written from the create payload or a signing request's update), read defensively. */
type SignerTexts = Pick<
  SigningRequestView,
  | "emailSubject"
  | "emailText"
  | "reminderEmailSubject"
  | "reminderEmailText"
  | "completedEmailSubject"
  | "completedEmailText"
  | "emailFormat"
  | "reminderInterval"
>;

function notificationOf(s: Signer): SignerTexts {
  const n: Record<string, unknown> = typeof s.notification === "object" && s.notification !== null && !Array.isArray(s.notification) ? s.notification : {};
  const text = (key: string) => (typeof n[key] === "string" ? (n[key] as string) : null);
  const format = n.emailFormat;
  return {
    emailSubject: text("emailSubject"),
    emailText: text("emailText"),
    reminderEmailSubject: text("reminderEmailSubject"),
    reminderEmailText: text("reminderEmailText"),
    completedEmailSubject: text("completedEmailSubject"),
    completedEmailText: text("completedEmailText"),
    emailFormat: format === "text" ? "text" : format === "html" ? "html" : null,
    reminderInterval: typeof n.reminderInterval === "number" && Number.isInteger(n.reminderInterval) ? n.reminderInterval : null,
  };
}

/** The signer's request, as sdk-php and sdk-net read it (`SigningRequest`): the state in SigningRequestStatus. */
export function presentSigningRequest(s: Signer): SigningRequestView {
  return {
    sdkClassName: "SigningRequest",
    id: s.id,
    status: signingRequestStatus(s.status),
    email: s.email,
    ...notificationOf(s),
    accessControl: s.accessControl,
    enableInsecureSigning: s.enableInsecureSigning,
    insecureSigningMethods: s.insecureSigningMethods,
    secureSigningMethods: s.secureSigningMethods,
    successUrl: s.successUrl,
    failUrl: s.failUrl,
    rejectReason: s.rejectReason,
    activated: unix(s.activatedAt),
    opened: unix(s.openedAt),
    signed: unix(s.signedAt),
    rejected: unix(s.rejectedAt),
  };
}

export function presentSigner(s: Signer): SignerView {
  return {
    sdkClassName: "Signer",
    id: s.id,
    name: s.name,
    role: s.role,
    onBehalfOf: s.onBehalfOf,
    ssnType: s.ssnType,
    vatin: s.vatin,
    signOrder: s.signOrder,
    language: s.language,
    channel: s.channel,
    storeAsContact: s.storeAsContact,
    status: penneoSignerStatus(s),
    signingRequest: presentSigningRequest(s),
  };
}

export function presentDocument(d: Document, caseFile: Pick<CaseFile, "status" | "createdAt" | "updatedAt" | "completedAt">): DocumentView {
  return {
    sdkClassName: "Document",
    id: d.id,
    documentId: String(d.id),
    title: d.title,
    name: d.name,
    signable: d.signable,
    signType: d.signable ? "signable" : "attachment",
    documentOrder: d.documentOrder,
    metaData: d.metaData,
    pageCount: d.pageCount,
    status: DOCUMENT_STATUS[caseFile.status] ?? null,
    created: unix(caseFile.createdAt),
    modified: unix(caseFile.updatedAt),
    completed: unix(caseFile.completedAt),
  };
}

const presentCcRecipient = (c: CcRecipient) => ({ id: c.id, name: c.name, email: c.email });
export const presentCopyRecipient = (c: CcRecipient): CopyRecipientView => ({ sdkClassName: "CopyRecipient", id: c.id, name: c.name, email: c.email });

/** Penneo's signIteration: the signOrder of the round that is signing (0 before any went out). */
function signIteration(cf: FullCaseFile): number {
  const waiting = cf.signers.filter((s) => s.status === SIGNER_STATUS.pending || s.status === SIGNER_STATUS.undeliverable).map((s) => s.signOrder);
  return waiting.length > 0 ? Math.min(...waiting) : 0;
}

/**
 * The one shape of a case file, at our `/send/api/v1/casefiles/{id}` and at Penneo's
 * `/api/v1|v3/casefiles/{id}`: the fields the Postman collection checks (`id`, `status`,
 * `documents[].id`), the entity fields Penneo's SDKs map (unix times `created`, `sendAt`,
 * `activated`, `expireAt`; `signers`, `documents`), and ours (ISO `createdAt`, `updatedAt`).
 */
export function presentCaseFile(cf: FullCaseFile): CaseFileView {
  return {
    sdkClassName: "CaseFile",
    id: cf.id,
    title: cf.title,
    status: caseFileStatus(cf.status),
    language: cf.language,
    reference: cf.reference,
    metaData: cf.metaData,
    folderId: cf.folderId,
    visibilityMode: cf.visibilityMode,
    sensitiveData: cf.sensitiveData,
    disableNotificationsOwner: cf.disableNotificationsOwner,
    disableEmailAttachments: cf.disableEmailAttachments,
    signOnMeeting: cf.signOnMeeting,
    userId: cf.userId,
    customerId: cf.customerId,
    signIteration: signIteration(cf),
    sendAt: unix(cf.sendAt),
    expireAt: unix(cf.expireAt),
    created: unix(cf.createdAt),
    activated: unix(cf.sentAt),
    completed: unix(cf.completedAt),
    signers: cf.signers.map(presentSigner),
    documents: cf.documents.map((d) => presentDocument(d, cf)),
    copyRecipients: cf.ccRecipients.map(presentCopyRecipient),
    ccRecipients: cf.ccRecipients.map(presentCcRecipient),
    createdAt: cf.createdAt.toISOString(),
    updatedAt: cf.updatedAt.toISOString(),
  };
}
