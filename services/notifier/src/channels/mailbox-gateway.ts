/**
 * The electronic mailbox channel (`channel: "eboks"` on a signer). A real e-Boks integration and the
 * development simulator implement the same interface, so the notifier never knows which one it talks to.
 */
export interface MailboxRecipient {
  /** The signer's name (spec, matching rule 5). */
  name: string;
  /** Exactly one of cpr (a person, 10 digits) or cvr (a company, 8 digits with an optional `:suffix`). */
  cpr?: string;
  cvr?: string;
}

export interface MailboxMessage {
  recipient: MailboxRecipient;
  /** Signer language, then case file language, then `da`. */
  language: string;
  subject: string;
  /** Plain text; it already contains the link, which is also given on its own for gateways that show a button. */
  body: string;
  link: string;
  /**
   * Same value for every attempt at the same message (our Notification dedupeKey), so a gateway that
   * supports it can drop a resend after a lost answer.
   */
  idempotencyKey?: string;
}

export interface MailboxReceipt {
  messageId: string;
}

export interface MailboxGateway {
  /** A short name for logs and the Notification rows (`eboks-simulator`, ...). */
  readonly name: string;
  /** Resolves once the gateway accepted the message; throws MailboxDeliveryError when it did not. */
  deliver(message: MailboxMessage): Promise<MailboxReceipt>;
}

/**
 * A message the gateway did not accept. `permanent`: retrying cannot help (no mailbox for that cpr/cvr,
 * recipient opted out) - the signer becomes undeliverable. Anything else (gateway down, timeouts)
 * is retried by BullMQ.
 */
export class MailboxDeliveryError extends Error {
  override readonly name = "MailboxDeliveryError";
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
