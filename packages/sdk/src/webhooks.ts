import { ZWebhookEvent, type WebhookEvent } from "./schemas";

/*
 * Receiving webhooks: the verifier of @esign/webhook-verify, re-exported so an integrator needs one
 * package. Verify first (on the raw body), then parse.
 */
export { MemoryEventIdStore, parseSignatureHeader, verifyWebhook } from "@esign/webhook-verify";
export type {
  EventIdStore,
  HeaderRecord,
  MemoryEventIdStoreOptions,
  VerifyFailureReason,
  VerifyResult,
  VerifyWebhookOptions,
} from "@esign/webhook-verify";

/** Parses a delivery body (after verifyWebhook accepted it) into the contract's event shape. */
export function parseWebhookEvent(rawBody: string | Buffer): WebhookEvent {
  return ZWebhookEvent.parse(JSON.parse(typeof rawBody === "string" ? rawBody : rawBody.toString("utf8")));
}
