import { z } from "zod";
import { ZCaseFileCreateData, ZSecureSigningMethod } from "@esign/schema";
import { ZGrant } from "../auth/token-schemas";
import { ZId } from "../casefiles/owned-casefile";
import { ZStatusRequest } from "../jobs/job-status-schemas";
import { ZDecision } from "../identity/simulator-schemas";
import { ZDocumentId, ZRejectBody, ZSignBody, ZStartBody } from "../signing/signing-schemas";
import { subscriptionSchemas, ZResourceId } from "../webhooks/subscription-schemas";
import { ZVerifyUploadRequest } from "../verification/verification-schemas";

/*
 * Request schemas as the document shows them. Wherever a route validates with zod, the schema here IS
 * that route's schema (imported). The few values a route checks without zod (a regex, a lookup) get
 * a describing schema here, marked "checked by the route".
 */

/** The endpoint policy only changes the network check, never the shape: one instance serves the document. */
const SUBSCRIPTION = subscriptionSchemas({ allowPrivate: false, requireHttps: true });

export const ZBinaryFile = z.string().meta({ format: "binary" });

export const ZCaseFileCreateRequest = z.object({
  data: ZCaseFileCreateData,
  files: z.array(ZBinaryFile).min(1),
});

// Read by the route (admin/queue-dashboard.ts).
const ZQueueDashboardLogin = z.object({ token: z.string().describe("An access token of a platform operator (POST /oauth/token)") });

/** Names under which request bodies appear in components/schemas; a body must use one of them. */
export const REQUEST_COMPONENTS = {
  TokenRequest: ZGrant,
  CaseFileCreateData: ZCaseFileCreateData,
  CaseFileCreateRequest: ZCaseFileCreateRequest,
  JobStatusRequest: ZStatusRequest,
  SubscriptionCreate: SUBSCRIPTION.create,
  SubscriptionUpdate: SUBSCRIPTION.update,
  SignRequest: ZSignBody,
  RejectRequest: ZRejectBody,
  SecureStartRequest: ZStartBody,
  IdpSimulatorDecision: ZDecision,
  QueueDashboardLogin: ZQueueDashboardLogin,
  VerifyUploadRequest: ZVerifyUploadRequest,
} as const satisfies Record<string, z.ZodType>;

// Checked by the route (signing-link.ts): 32 random bytes in base64url.
const ZSigningToken = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/)
  .describe("The last path segment of a signing link");

export const ZCaseFileParams = z.object({ id: ZId });
export const ZDocumentFileParams = z.object({ id: ZId, documentId: ZId });
export const ZSignerParams = z.object({ id: ZId, signerId: ZId });
export const ZDocumentParams = z.object({ documentId: ZId });
export const ZDocumentContentQuery = z.object({
  signed: z.enum(["true", "false"]).optional().describe("false: the uploaded original even once the sealed copy exists (sdk-php's getContent(false))"),
});
export const ZSubscriptionParams = z.object({ id: ZResourceId });
export const ZRedeliverParams = z.object({ id: ZResourceId, eventId: ZResourceId });
export const ZSigningParams = z.object({ token: ZSigningToken });
export const ZSigningDocumentParams = z.object({ token: ZSigningToken, documentId: ZDocumentId });
export const ZSecureStartParams = z.object({ token: ZSigningToken, method: ZSecureSigningMethod });

// Checked by the route (tracking-pixel-route.ts); an unknown id still answers the same GIF.
export const ZTrackingPixelParams = z.object({
  file: z
    .string()
    .regex(/^.{1,80}\.gif$/)
    .describe("{trackingId}.gif, as written into the signing-request mail"),
});

// Read by the route (signing-router.ts) and checked against the sealed login state.
export const ZSecureCallbackQuery = z.object({
  state: z.string().optional().describe("The sealed login state the gateway gave the identity provider"),
  code: z.string().optional().describe("The provider's authorization code"),
  error: z.string().optional().describe("Set by the provider when the login was cancelled or failed"),
  iss: z.string().optional().describe("The provider's issuer (RFC 9207), checked by the OpenID Connect adapter"),
});

// Checked by the route (create-route.ts).
export const ZCreateHeaders = z.object({
  "Idempotency-Key": z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .describe("Same key and same payload answer the first answer again; same key and another payload: 422"),
});
