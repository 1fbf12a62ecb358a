import { z } from "zod";
import type { ErrorBody } from "@esign/errors";
import { CASEFILE_STATUS, SIGNER_STATUS, ZEventType, ZInsecureSigningMethod, ZSecureSigningMethod, ZSigningLinkItem } from "@esign/schema";
import type { TokenAnswer } from "../auth/token-schemas";
import type { CaseFileView } from "../casefiles/present-casefile";
import { PENNEO_SIGNER_STATUS } from "../casefiles/present-casefile";
import type { JobResult } from "../jobs/job-status-schemas";
import type { SigningView } from "../signing/signing-view";
import type { presentSubscription } from "../webhooks/present-subscription";
import { ZDocumentVerification, ZPublicVerification } from "../verification/verification-schemas";

/*
 * The contract's answer shapes. The routes build their answers by hand; these schemas document them
 * and the e2e tests parse real answers with them. The type checks at the bottom tie them to the
 * route code's own types where one exists.
 */

const isoTime = () => z.iso.datetime().describe("ISO 8601, UTC");
const unixTime = () => z.int().describe("Unix time, seconds");
const described = (values: Record<string, number>) =>
  Object.entries(values)
    .map(([name, n]) => `${n} ${name}`)
    .join(", ");

export const ZFieldIssue = z.object({
  path: z.string().describe('Where the problem is, e.g. "caseFile.signers[0].email"'),
  code: z.string(),
  message: z.string(),
});

export const ZErrorBody = z
  .object({
    error: z.string().describe("Machine-readable code, e.g. validation_failed, unauthorized, not_found, conflict"),
    message: z.string(),
    statusCode: z.int(),
    errors: z.array(ZFieldIssue).optional().describe("Every failing field, not only the first"),
    errorId: z.string().optional().describe("500 only: the id under which the failure is logged"),
  })
  .describe("The body of every 4xx and 5xx answer");

export const ZOAuthErrorBody = z
  .object({
    error: z.enum(["invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type"]).describe("RFC 6749 section 5.2"),
    error_description: z.string(),
    errors: z.array(ZFieldIssue).optional().describe("invalid_request: every failing field"),
  })
  .describe("The body of every 4xx of POST /oauth/token (OAuth 2.0 shape)");

export const ZTokenAnswer = z.object({
  access_token: z.string().describe("A JWT"),
  token_type: z.literal("Bearer"),
  expires_in: z.int().describe("Seconds"),
  access_token_expires_at: unixTime(),
  refresh_token: z.string().optional().describe("api_keys and refresh_token grants: good once (each use returns a new one)"),
  refresh_token_expires_at: unixTime().optional(),
});

export const ZCreateAnswer = z.object({
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
});

export const ZCaseFileStatus = z.literal(Object.values(CASEFILE_STATUS)).describe(`Case file status: ${described(CASEFILE_STATUS)}`);
export const ZSigningRequestStatus = z
  .literal(Object.values(SIGNER_STATUS))
  .describe(`Signing request status (Penneo's SDKs' SigningRequestStatus): ${described(SIGNER_STATUS)}`);
export const ZPenneoSignerStatus = z
  .literal(Object.values(PENNEO_SIGNER_STATUS))
  .nullable()
  .describe(`Signer status (Penneo's Postman collection): ${described(PENNEO_SIGNER_STATUS)}; null before the request goes out, or once deleted`);

export const ZJob = z.object({
  uuid: z.uuid(),
  type: z.literal("casefile_creation"),
  jobStatus: z
    .enum(["pending", "processing", "completed", "failed", "aborted_duplicated"])
    .describe("aborted_duplicated: the same payload was submitted by the same customer moments before; no case file was made for this job"),
  result: z
    .object({
      data: z.object({
        caseFile: z.object({ id: z.int(), status: ZCaseFileStatus }),
        signingLinks: z.array(ZSigningLinkItem.extend({ signingLink: z.url().describe("{public base url}/sign/{token}") })),
      }),
    })
    .nullable()
    .describe("Set once the job is completed; read as result.data.caseFile.id and result.data.signingLinks"),
  payloadHash: z.string(),
  errorMessage: z.string().nullable().describe("Why a failed job failed"),
  retries: z.int(),
  maxRetries: z.int(),
  createdAt: isoTime(),
  updatedAt: isoTime(),
});

export const ZSigningRequest = z.object({
  id: z.int().describe("The signer's id"),
  status: ZSigningRequestStatus,
  email: z.string().nullable(),
  accessControl: z.boolean(),
  enableInsecureSigning: z.boolean(),
  insecureSigningMethods: z.array(z.string()),
  secureSigningMethods: z.array(z.string()),
  successUrl: z.string().nullable(),
  failUrl: z.string().nullable(),
  rejectReason: z.string().nullable(),
  activated: unixTime().nullable(),
  opened: unixTime().nullable(),
  signed: unixTime().nullable(),
  rejected: unixTime().nullable(),
});

export const ZSigningRequestList = z.array(ZSigningRequest).describe("One signing request per signer");

export const ZSigner = z.object({
  id: z.int(),
  name: z.string(),
  role: z.string(),
  onBehalfOf: z.string().nullable(),
  signOrder: z.int(),
  language: z.string().nullable(),
  channel: z.string(),
  status: ZPenneoSignerStatus,
  signingRequest: ZSigningRequest,
});

export const ZSignerList = z.array(ZSigner);

export const ZDocument = z.object({
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
  created: unixTime().nullable(),
  modified: unixTime().nullable(),
  completed: unixTime().nullable(),
});

export const ZDocumentList = z.array(ZDocument);

export const ZCaseFile = z.object({
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
  sendAt: unixTime().nullable(),
  expireAt: unixTime().nullable(),
  created: unixTime().nullable(),
  activated: unixTime().nullable().describe("When it was sent"),
  completed: unixTime().nullable(),
  signers: z.array(ZSigner),
  documents: z.array(ZDocument),
  ccRecipients: z.array(z.object({ id: z.int(), name: z.string(), email: z.string() })),
  createdAt: isoTime(),
  updatedAt: isoTime(),
});

export const ZUser = z.object({ id: z.int(), fullName: z.string(), email: z.string(), customerId: z.int(), isAdmin: z.boolean() });

export const ZBase64Pdf = z.string().describe("The PDF, base64");
export const ZBase64PdfList = z.array(z.string()).describe("One element: the PDF, base64 (sdk-net's Document.GetPdfAsync)");

export const ZSubscription = z.object({
  customerId: z.int(),
  id: z.uuid(),
  isActive: z.boolean(),
  secret: z.string().describe("Key of the X-Event-Signature HMAC; shown on every read"),
  eventTypes: z.array(ZEventType),
  endpoint: z.string(),
  createdAt: isoTime(),
  updatedAt: isoTime(),
});

export const ZSubscriptionList = z.object({ items: z.array(ZSubscription) });

export const ZEventIdAnswer = z.object({ eventId: z.uuid() });

export const ZDeliveryAttempt = z.object({
  id: z.uuid(),
  eventId: z.uuid(),
  attemptNumber: z.int(),
  outcome: z.string(),
  httpStatus: z.int().nullable(),
  cause: z.string(),
  durationMs: z.int(),
  nextAttemptAt: isoTime().nullable(),
  createdAt: isoTime(),
});

export const ZDeliveryPage = z.object({
  data: z.array(ZDeliveryAttempt).describe("Newest first"),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last page"),
});

export const ZSigningView = z.object({
  signer: z.object({ id: z.int(), name: z.string(), role: z.string(), onBehalfOf: z.string().nullable(), status: z.int() }),
  caseFile: z.object({ id: z.int(), title: z.string(), status: z.int(), sensitiveData: z.boolean(), visibilityMode: z.int() }),
  state: z.enum(["pending", "signed"]),
  signedAt: z.string().nullable(),
  signatureMethod: z.string().nullable(),
  canSign: z.boolean(),
  expireAt: z.string().nullable(),
  documents: z.array(z.object({ id: z.int(), title: z.string(), name: z.string(), signable: z.boolean(), maySign: z.boolean(), url: z.string() })),
  methods: z.object({ insecure: z.array(ZInsecureSigningMethod), secure: z.array(ZSecureSigningMethod) }),
  links: z.object({ page: z.string(), sign: z.string(), reject: z.string(), secureStart: z.record(z.string(), z.string()) }),
});

export const ZSignerActionAnswer = z.object({
  status: z.enum(["signed", "rejected", "identified"]),
  signerId: z.int(),
  redirectUrl: z.string().nullable().describe("successUrl / failUrl of the signer when it is an http(s) URL"),
});

export const ZRedirectAnswer = z.object({ redirectUrl: z.url().describe("Where to send the browser: the identity provider") });

export const ZHealth = z.object({ status: z.literal("ok") });
export const ZReadiness = z.object({
  status: z.enum(["ready", "not_ready"]),
  checks: z.record(z.string(), z.string()).describe('"ok" or the failure, per dependency'),
});

export const ZOpenApiDocument = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) });

/** Names under which these appear in components/schemas; a JSON answer must use one of them. */
export const RESPONSE_COMPONENTS = {
  ErrorBody: ZErrorBody,
  OAuthErrorBody: ZOAuthErrorBody,
  TokenAnswer: ZTokenAnswer,
  CreateAnswer: ZCreateAnswer,
  Job: ZJob,
  CaseFile: ZCaseFile,
  Signer: ZSigner,
  SignerList: ZSignerList,
  SigningRequestList: ZSigningRequestList,
  Document: ZDocument,
  DocumentList: ZDocumentList,
  Base64Pdf: ZBase64Pdf,
  User: ZUser,
  Base64PdfList: ZBase64PdfList,
  Subscription: ZSubscription,
  SubscriptionList: ZSubscriptionList,
  EventIdAnswer: ZEventIdAnswer,
  DeliveryPage: ZDeliveryPage,
  SigningView: ZSigningView,
  SignerActionAnswer: ZSignerActionAnswer,
  RedirectAnswer: ZRedirectAnswer,
  Health: ZHealth,
  Readiness: ZReadiness,
  OpenApiDocument: ZOpenApiDocument,
  DocumentVerification: ZDocumentVerification,
  PublicVerification: ZPublicVerification,
} as const satisfies Record<string, z.ZodType>;

// Compile-time ties to the route code: a field added to or dropped from an answer breaks the build.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
export type ResponseSchemaChecks = [
  Expect<Same<z.output<typeof ZTokenAnswer>, TokenAnswer>>,
  Expect<Same<keyof z.output<typeof ZCaseFile>, keyof CaseFileView>>,
  Expect<Same<keyof z.output<typeof ZSigner>, keyof CaseFileView["signers"][number]>>,
  Expect<Same<keyof z.output<typeof ZDocument>, keyof CaseFileView["documents"][number]>>,
  Expect<Same<keyof z.output<typeof ZSigningRequest>, keyof CaseFileView["signers"][number]["signingRequest"]>>,
  Expect<Same<keyof NonNullable<z.output<typeof ZJob>["result"]>["data"], keyof JobResult["data"]>>,
  Expect<Same<keyof z.output<typeof ZErrorBody>, keyof ErrorBody>>,
  Expect<Same<keyof z.output<typeof ZSubscription>, keyof ReturnType<typeof presentSubscription>>>,
  Expect<Same<keyof z.output<typeof ZSigningView>, keyof SigningView>>,
  Expect<Same<z.output<typeof ZSigningView>["methods"], SigningView["methods"]>>,
];
