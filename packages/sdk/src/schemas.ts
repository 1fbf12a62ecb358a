import { z } from "zod";

/*
 * The contract's response shapes. Answers are checked with these (cheap, and a mismatch is reported
 * as EsignResponseError rather than surfacing later as `undefined`); unknown extra properties are
 * dropped, so a server that adds fields does not break older clients.
 */

export const ZTokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
  access_token_expires_at: z.number().optional(),
  /** api_keys and refresh_token grants: spend it with grant_type=refresh_token (once). */
  refresh_token: z.string().optional(),
  refresh_token_expires_at: z.number().optional(),
});
export type TokenResponse = z.infer<typeof ZTokenResponse>;

export const ZCreatedJob = z.object({
  uuid: z.string(),
  payloadHash: z.string(),
  createdAt: z.string(),
});
/** What `createCaseFile` resolves with: the pair that identifies the creation job, and its time. */
export type CreatedJob = z.infer<typeof ZCreatedJob>;

export const ZCreateResponse = z.object({
  status: z.string(),
  message: z.string(),
  jobs: z.array(ZCreatedJob).min(1),
});

export const ZSigningLink = z.object({
  signerId: z.number(),
  name: z.string(),
  role: z.string(),
  /** `{public base url}/sign/{token}`. */
  signingLink: z.string(),
});
export type SigningLink = z.infer<typeof ZSigningLink>;

/** A completed job's result, read as Penneo's clients read it: `result.data.caseFile.id`, `result.data.signingLinks`. */
export const ZJobResult = z.object({
  data: z.object({
    caseFile: z.object({ id: z.number(), status: z.number() }),
    signingLinks: z.array(ZSigningLink),
  }),
});
export type JobResult = z.infer<typeof ZJobResult>;

/** `aborted_duplicated`: the same payload was submitted moments before; this job made no case file. */
export const JOB_STATUSES = ["pending", "processing", "completed", "failed", "aborted_duplicated"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const ZJob = z.object({
  uuid: z.string(),
  type: z.string(),
  jobStatus: z.enum(JOB_STATUSES),
  result: ZJobResult.nullable(),
  payloadHash: z.string(),
  errorMessage: z.string().nullable(),
  retries: z.number(),
  maxRetries: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** A creation job as the job-status endpoint answers it. */
export type Job = z.infer<typeof ZJob>;
/** A job that `waitForJob` resolved with: completed, so its result is there. */
export type CompletedJob = Job & { jobStatus: "completed"; result: JobResult };

/** Case file and signer `status` values of the contract (shared with the server). */
export { CASEFILE_STATUS as CASE_FILE_STATUS, SIGNER_STATUS } from "@esign/schema";

export const ZSigningRequest = z.object({
  /** The signer's id. */
  id: z.number(),
  /** SIGNER_STATUS: 0 new, 1 pending, 2 rejected, 3 deleted, 4 signed, 5 undeliverable. */
  status: z.number(),
  email: z.string().nullable(),
  rejectReason: z.string().nullable(),
  /** Unix seconds; absent until signed. */
  signed: z.number().optional(),
  emailSubject: z.string().nullable().optional(),
  emailText: z.string().nullable().optional(),
  reminderEmailSubject: z.string().nullable().optional(),
  reminderEmailText: z.string().nullable().optional(),
  completedEmailSubject: z.string().nullable().optional(),
  completedEmailText: z.string().nullable().optional(),
  emailFormat: z.string().nullable().optional(),
  /** Days between reminders; null: none. */
  reminderInterval: z.number().nullable().optional(),
  accessControl: z.boolean().optional(),
  enableInsecureSigning: z.boolean().optional(),
  insecureSigningMethods: z.array(z.string()).optional(),
  secureSigningMethods: z.array(z.string()).optional(),
  successUrl: z.string().nullable().optional(),
  failUrl: z.string().nullable().optional(),
});
/** A signer's signing request (its id is the signer's): address, texts, reminders, redirects, methods. */
export type SigningRequest = z.infer<typeof ZSigningRequest>;

export const ZSigner = z.object({
  id: z.number(),
  name: z.string(),
  role: z.string(),
  onBehalfOf: z.string().nullable(),
  signOrder: z.number(),
  /** Penneo's signer status: 0 request sent, 1 request opened, 2 opened, 3 signed, 4 rejected; null before the request went out or once deleted. */
  status: z.number().nullable(),
  signingRequest: ZSigningRequest,
});
export type Signer = z.infer<typeof ZSigner>;

export const ZCopyRecipient = z.object({ id: z.number(), name: z.string(), email: z.string() });
/** Who gets a copy of the signed documents when the case file completes. */
export type CopyRecipient = z.infer<typeof ZCopyRecipient>;

export const ZLogEntry = z.object({
  id: z.number(),
  /** The entry's code (docs/penneo-compatibility.md, "The event log"), e.g. 4 signed, 100 created. */
  eventType: z.number(),
  /** Unix seconds. */
  eventTime: z.number(),
  /** The code's name: `signed`, `requestResent`, `created`, ... */
  event: z.string(),
  /** `system`, `user` (an API user) or `signer` (through their link). */
  actor: z.string(),
  signerId: z.number().optional(),
  userId: z.number().optional(),
  ip: z.string().optional(),
  userAgent: z.string().optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
});
/** One entry of a case file's or signer's event log. */
export type LogEntry = z.infer<typeof ZLogEntry>;

export const ZDocument = z.object({
  id: z.number(),
  title: z.string(),
  name: z.string(),
  signable: z.boolean(),
  documentOrder: z.number().nullable(),
  metaData: z.string().nullable().optional(),
});
export type Document = z.infer<typeof ZDocument>;

export const ZCaseFile = z.object({
  id: z.number(),
  title: z.string(),
  status: z.number(),
  language: z.string().nullable(),
  reference: z.string().nullable(),
  metaData: z.string().nullable(),
  /** The folder it is in (client.folders), or null. */
  folderId: z.number().nullable(),
  /** Unix seconds; absent when not set (Penneo's entity JSON leaves unset dates out). */
  sendAt: z.number().optional(),
  /** Unix seconds; absent when not set. */
  expireAt: z.number().optional(),
  signers: z.array(ZSigner),
  documents: z.array(ZDocument),
  ccRecipients: z.array(z.object({ id: z.number().optional(), name: z.string(), email: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CaseFile = z.infer<typeof ZCaseFile>;

export const ZSubscription = z.object({
  customerId: z.number(),
  id: z.string(),
  isActive: z.boolean(),
  /** The signing secret: the key for verifyWebhook. */
  secret: z.string(),
  eventTypes: z.array(z.string()),
  endpoint: z.string(),
  /** Deliveries per second at most; null: no limit. Absent from servers without throttling (Penneo's). */
  maxPerSecond: z.number().nullable().optional(),
  /** Events of one case file delivered in order (opt-in). */
  ordered: z.boolean().optional(),
  /** During a secret rotation's overlap: until when deliveries also carry the previous secret's v1. */
  previousSecretExpiresAt: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Subscription = z.infer<typeof ZSubscription>;

export const ZRotatedSecret = z.object({
  id: z.string(),
  /** The new signing secret. */
  secret: z.string(),
  /** Until when deliveries also carry a v1 made with the previous secret; null for no overlap. */
  previousSecretExpiresAt: z.string().nullable(),
});
export type RotatedSecret = z.infer<typeof ZRotatedSecret>;

export const ZRecoverTask = z.object({
  id: z.string(),
  subscriptionId: z.string(),
  since: z.string(),
  until: z.string(),
  /** true: every delivery of the window; false: only those that failed. */
  all: z.boolean(),
  /** queued | running | completed | cancelled (the subscription was disabled or deleted first). */
  state: z.string(),
  /** Deliveries the window held when the task started; null until then. */
  total: z.number().nullable(),
  /** Deliveries put back on a new ladder so far. */
  queued: z.number(),
  /** Deliveries of the window that succeeded since the task was created. */
  delivered: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
/** A recover task and its progress. */
export type RecoverTask = z.infer<typeof ZRecoverTask>;

export const ZDeliveryAttempt = z.object({
  id: z.string(),
  eventId: z.string(),
  attemptNumber: z.number(),
  outcome: z.string(),
  httpStatus: z.number().nullable(),
  cause: z.string(),
  durationMs: z.number(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
/** One delivery attempt of the subscription's log. */
export type DeliveryAttempt = z.infer<typeof ZDeliveryAttempt>;

export const ZDeliveryPage = z.object({
  data: z.array(ZDeliveryAttempt),
  /** Pass back unchanged for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type DeliveryPage = z.infer<typeof ZDeliveryPage>;

export const ZEventIdAnswer = z.object({ eventId: z.string() });

export const ZFieldError = z.object({ path: z.string(), code: z.string(), message: z.string() });
export type FieldError = z.infer<typeof ZFieldError>;

/** The contract's error body (or the token endpoint's OAuth one); every part optional so that odd bodies still yield an error. */
export const ZErrorBody = z.object({
  error: z.string().optional(),
  message: z.string().optional(),
  error_description: z.string().optional(),
  statusCode: z.number().optional(),
  errors: z.array(ZFieldError).optional(),
  errorId: z.string().optional(),
});

/**
 * The body of a webhook delivery (after verifying it). `topic` and `eventType` are the parts of the
 * event type (`sign.casefile.completed`: topic `casefile`, eventType `completed`); the whole type
 * is the `X-Event-Type` header.
 */
export const ZWebhookEvent = z.object({
  topic: z.string(),
  eventType: z.string(),
  eventTime: z.object({ date: z.string(), timezone_type: z.number(), timezone: z.string() }),
  payload: z.unknown(),
});
export type WebhookEvent = z.infer<typeof ZWebhookEvent>;
