import { z } from "zod";
import type { ErrorBody } from "@esign/errors";
import {
  CASEFILE_STATUS,
  SIGNER_STATUS,
  ZEventType,
  ZInsecureSigningMethod,
  ZSecureSigningMethod,
  ZSigningLinkItem,
} from "@esign/schema";
import type { IssuedToken } from "../auth/jwt";
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
const described = (values: Record<string, number>) => Object.entries(values).map(([name, n]) => `${n} ${name}`).join(", ");

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

export const ZTokenAnswer = z.object({
  access_token: z.string().describe("A JWT"),
  token_type: z.literal("Bearer"),
  expires_in: z.int().describe("Seconds"),
  access_token_expires_at: unixTime(),
});

export const ZCreateAnswer = z.object({
  status: z.literal("handled"),
  message: z.string(),
  jobs: z.array(
    z.object({
      uuid: z.uuid(),
      payloadHash: z.string().regex(/^[0-9a-f]{64}$/).describe("Lowercase hex SHA-256 over the data string and the files"),
      createdAt: isoTime(),
    }),
  ),
});

export const ZCaseFileStatus = z.literal(Object.values(CASEFILE_STATUS)).describe(`Case file status: ${described(CASEFILE_STATUS)}`);
export const ZSignerStatus = z.literal(Object.values(SIGNER_STATUS)).describe(`Signer status: ${described(SIGNER_STATUS)}`);

export const ZJob = z.object({
  uuid: z.uuid(),
  type: z.literal("casefile_creation"),
  jobStatus: z.enum(["pending", "processing", "completed", "failed"]),
  result: z
    .object({
      caseFile: z.object({ id: z.int(), status: ZCaseFileStatus }),
      signingLinks: z.array(ZSigningLinkItem.extend({ signingLink: z.url().describe("{public base url}/sign/{token}") })),
    })
    .nullable()
    .describe("Set once the job is completed"),
  payloadHash: z.string(),
  errorMessage: z.string().nullable().describe("Why a failed job failed"),
  retries: z.int(),
  maxRetries: z.int(),
  createdAt: isoTime(),
  updatedAt: isoTime(),
});

export const ZCaseFile = z.object({
  id: z.int(),
  title: z.string(),
  status: ZCaseFileStatus,
  reference: z.string().nullable(),
  sendAt: unixTime().nullable(),
  expireAt: unixTime().nullable(),
  signers: z.array(z.object({ id: z.int(), name: z.string(), role: z.string(), signOrder: z.int(), status: ZSignerStatus })),
  documents: z.array(z.object({ id: z.int(), title: z.string(), name: z.string(), signable: z.boolean() })),
  ccRecipients: z.array(z.object({ id: z.int(), name: z.string(), email: z.string() })),
  createdAt: isoTime(),
  updatedAt: isoTime(),
});

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

export const ZSubscriptionList = z.array(ZSubscription);

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
  documents: z.array(
    z.object({ id: z.int(), title: z.string(), name: z.string(), signable: z.boolean(), maySign: z.boolean(), url: z.string() }),
  ),
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
  TokenAnswer: ZTokenAnswer,
  CreateAnswer: ZCreateAnswer,
  Job: ZJob,
  CaseFile: ZCaseFile,
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
  Expect<Same<z.output<typeof ZTokenAnswer>, IssuedToken>>,
  Expect<Same<keyof z.output<typeof ZErrorBody>, keyof ErrorBody>>,
  Expect<Same<keyof z.output<typeof ZSubscription>, keyof ReturnType<typeof presentSubscription>>>,
  Expect<Same<keyof z.output<typeof ZSigningView>, keyof SigningView>>,
  Expect<Same<z.output<typeof ZSigningView>["methods"], SigningView["methods"]>>,
];
