import { z } from "zod";
import { SIGNER_STATUS, ZCaseFileCreateData } from "@esign/schema";
import { component } from "../contract/components";
import { describeCodes, isoTime, unixTime, ZBinaryFile, ZCaseFileStatus, ZId } from "../contract/common-schemas";

/*
 * What the case file routes take and answer: their contracts (casefile-contracts.ts) declare these,
 * their handlers and presenters (present-casefile.ts) are typed from them (z.input), so an answer
 * is described once.
 */

/**
 * A signer's status in the codes of Penneo's Postman collection ("Check Casefile Status"):
 * 0 request sent, 1 request opened, 2 opened, 3 signed, 4 rejected. A signer whose request has
 * not gone out (a later round), or who was deleted, has none of these: null. The full state is
 * `signingRequest.status`, in the codes of Penneo's SDKs (SigningRequestStatus).
 */
export const PENNEO_SIGNER_STATUS = { requestSent: 0, requestOpened: 1, opened: 2, signed: 3, rejected: 4 } as const;

// Requests.

export const ZCaseFileCreateRequest = component(
  "CaseFileCreateRequest",
  z.object({
    data: component("CaseFileCreateData", ZCaseFileCreateData),
    files: z.array(ZBinaryFile).min(1),
  }),
);

export const ZCreateHeaders = z.object({
  "Idempotency-Key": z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, "1 to 255 visible ASCII characters")
    .optional()
    .describe("Same key and same payload answer the first answer again; same key and another payload: 422"),
});

export const ZCaseFileParams = z.object({ id: ZId });
export const ZDocumentFileParams = z.object({ id: ZId, documentId: ZId });
export const ZSignerParams = z.object({ id: ZId, signerId: ZId });
export const ZDocumentParams = z.object({ documentId: ZId });
export const ZDocumentContentQuery = z.object({
  signed: z.enum(["true", "false"]).optional().describe("false: the uploaded original even once the sealed copy exists (sdk-php's getContent(false))"),
});

// Answers.

export const ZCreateAnswer = component(
  "CreateAnswer",
  z.object({
    // 200, as Penneo's Postman collection checks.
    status: z.literal("handled"),
    message: z.string(),
    jobs: z.array(
      z.object({
        uuid: z.uuid(),
        payloadHash: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .describe("Lowercase hex SHA-256 over the data string and the files"),
        createdAt: isoTime(),
      }),
    ),
  }),
);

const ZSigningRequestStatus = z
  .literal(Object.values(SIGNER_STATUS))
  .describe(`Signing request status (Penneo's SDKs' SigningRequestStatus): ${describeCodes(SIGNER_STATUS)}`);
const ZPenneoSignerStatus = z
  .literal(Object.values(PENNEO_SIGNER_STATUS))
  .nullable()
  .describe(`Signer status (Penneo's Postman collection): ${describeCodes(PENNEO_SIGNER_STATUS)}; null before the request goes out, or once deleted`);

/**
 * Penneo's entity JSON names each embedded entity's class: sdk-php turns an embedded array into an
 * entity only when it carries `sdkClassName` (research: docs/penneo-compatibility.md, "Answers").
 */
const sdkClass = <const N extends string>(name: N) => z.literal(name).describe("The entity's class, as Penneo's SDKs read embedded entities");

/**
 * A date of an entity: unix seconds, LEFT OUT when unset (sdk-net reads a JSON null date as 1970 and
 * PUTs it back as 0).
 */
const entityTime = (what: string) => unixTime().optional().describe(`${what}: unix seconds; absent when unset`);

export const ZSigningRequest = component(
  "SigningRequest",
  z.object({
    sdkClassName: sdkClass("SigningRequest"),
    id: z.int().describe("The signer's id"),
    status: ZSigningRequestStatus,
    email: z.string().nullable(),
    emailSubject: z.string().nullable(),
    emailText: z.string().nullable(),
    reminderEmailSubject: z.string().nullable(),
    reminderEmailText: z.string().nullable(),
    completedEmailSubject: z.string().nullable(),
    completedEmailText: z.string().nullable(),
    emailFormat: z.enum(["text", "html"]).nullable().describe("null: the default (html)"),
    reminderInterval: z.int().nullable().describe("Days between reminders; null: no reminders"),
    accessControl: z.boolean(),
    enableInsecureSigning: z.boolean(),
    insecureSigningMethods: z.array(z.string()),
    secureSigningMethods: z.array(z.string()),
    successUrl: z.string().nullable(),
    failUrl: z.string().nullable(),
    rejectReason: z.string().nullable(),
    activated: entityTime("When the request went out"),
    opened: entityTime("When the signer opened the signing page"),
    signed: entityTime("When the signer signed"),
    rejected: entityTime("When the signer rejected"),
  }),
);

export const ZSigningRequestList = component("SigningRequestList", z.array(ZSigningRequest).describe("One signing request per signer"));

export const ZSigner = component(
  "Signer",
  z.object({
    sdkClassName: sdkClass("Signer"),
    id: z.int(),
    name: z.string(),
    role: z.string(),
    onBehalfOf: z.string().nullable(),
    ssnType: z.string().nullable(),
    vatin: z.string().nullable(),
    signOrder: z.int(),
    language: z.string().nullable(),
    channel: z.string(),
    storeAsContact: z.boolean(),
    status: ZPenneoSignerStatus,
    signingRequest: ZSigningRequest,
  }),
);

export const ZSignerList = component("SignerList", z.array(ZSigner));

export const ZDocument = component(
  "Document",
  z.object({
    sdkClassName: sdkClass("Document"),
    id: z.int(),
    documentId: z.string(),
    title: z.string(),
    name: z.string(),
    signable: z.boolean(),
    signType: z.enum(["signable", "attachment"]),
    documentOrder: z.int().nullable(),
    metaData: z.string().nullable(),
    pageCount: z.int().nullable().describe("Pages of the upload (checked when it was uploaded)"),
    status: z.int().nullable().describe("Penneo's DocumentStatus: 0 new, 1 pending, 2 rejected, 3 deleted, 4 signed, 5 completed, 7 failed"),
    created: entityTime("When the case file was created"),
    modified: entityTime("When the case file last changed"),
    completed: entityTime("When the case file was completed"),
  }),
);

export const ZDocumentList = component("DocumentList", z.array(ZDocument));

export const ZCopyRecipient = component(
  "CopyRecipient",
  z.object({ sdkClassName: sdkClass("CopyRecipient"), id: z.int(), name: z.string(), email: z.string() }),
);

export const ZCaseFile = component(
  "CaseFile",
  z.object({
    sdkClassName: sdkClass("CaseFile"),
    id: z.int(),
    title: z.string(),
    status: ZCaseFileStatus,
    language: z.string().nullable(),
    reference: z.string().nullable(),
    metaData: z.string().nullable(),
    folderId: z.int().nullable(),
    visibilityMode: z.int(),
    sensitiveData: z.boolean(),
    disableNotificationsOwner: z.boolean(),
    disableEmailAttachments: z.boolean(),
    signOnMeeting: z.boolean(),
    userId: z.int(),
    customerId: z.int(),
    signIteration: z.int().describe("Penneo's signing round counter (sdk-net reads it as a non-nullable int): the lowest signOrder still to sign"),
    sendAt: entityTime("When it is (or was) to be sent"),
    expireAt: entityTime("When it expires"),
    created: entityTime("When it was created"),
    activated: entityTime("When it was sent"),
    completed: entityTime("When it was completed"),
    signers: z.array(ZSigner),
    documents: z.array(ZDocument),
    copyRecipients: z.array(ZCopyRecipient).describe("Who gets a copy when it completes (what Penneo's SDKs read)"),
    ccRecipients: z.array(z.object({ id: z.int(), name: z.string(), email: z.string() })).describe("The same, as the create payload names them"),
    createdAt: isoTime(),
    updatedAt: isoTime(),
  }),
);

export const ZCaseFileList = component("CaseFileList", z.array(ZCaseFile).describe("Case files, each as GET casefiles/{id} answers it"));

export const ZUser = component("User", z.object({ id: z.int(), fullName: z.string(), email: z.string(), customerId: z.int(), isAdmin: z.boolean() }));

export const ZBase64Pdf = component("Base64Pdf", z.string().describe("The PDF, base64"));
export const ZBase64PdfList = component("Base64PdfList", z.array(z.string()).describe("One element: the PDF, base64 (sdk-net's Document.GetPdfAsync)"));

export type CaseFileView = z.input<typeof ZCaseFile>;
export type SignerView = z.input<typeof ZSigner>;
export type DocumentView = z.input<typeof ZDocument>;
export type SigningRequestView = z.input<typeof ZSigningRequest>;
export type CreateAnswer = z.input<typeof ZCreateAnswer>;
export type CopyRecipientView = z.input<typeof ZCopyRecipient>;
