import addressparser from "nodemailer/lib/addressparser";
import type Mail from "nodemailer/lib/mailer";
import { MailDeliveryError } from "./mail-delivery-error";
import type { MailMessage } from "./types";

// Set from the message's own fields; letting `headers` override them would bypass those fields' checks.
const RESERVED_HEADERS = new Set([
  "from",
  "sender",
  "reply-to",
  "to",
  "cc",
  "bcc",
  "subject",
  "date",
  "message-id",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
  "content-disposition",
]);
const HEADER_NAME = /^[!-9;-~]+$/; // RFC 5322 field name: printable ASCII without ':'

/** The sender: MAIL_FROM (or the message's `from`), with `fromName` replacing only the display name. */
export function senderOf(message: Pick<MailMessage, "from" | "fromName">, defaultFrom: string): Mail.Address {
  const raw = message.from ?? defaultFrom;
  const parsed = addressparser(raw, { flatten: true })[0];
  if (!parsed?.address) throw new TypeError(`not a sender address: ${JSON.stringify(raw)}`);
  const name = message.fromName?.trim() || parsed.name;
  return { name, address: parsed.address };
}

/**
 * The nodemailer options for one message, shared by every transport so that the .eml in the outbox is
 * byte for byte what SMTP would have carried.
 */
export function composeMail(message: MailMessage, defaultFrom: string): Mail.Options {
  const cc = message.cc ?? [];
  // Checked here rather than left to the transport so both mailers refuse it the same way.
  if (message.to.length + cc.length === 0) {
    throw new MailDeliveryError("mail not delivered (permanent, recipient): the message has no recipients", { permanent: true, kind: "recipient" });
  }
  for (const name of Object.keys(message.headers ?? {})) {
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(name.toLowerCase())) throw new TypeError(`header not allowed in MailMessage.headers: ${name}`);
  }
  return {
    from: senderOf(message, defaultFrom),
    to: message.to,
    cc: cc.length > 0 ? cc : undefined,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: message.headers,
    attachments: message.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
    // Our content never names files or URLs to inline; refusing them keeps a stray `path` from reading the disk.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** nodemailer reports addresses as strings or {name, address}; callers only need the address. */
export function addressesOf(list: ReadonlyArray<string | Mail.Address> | undefined): string[] {
  return (list ?? []).map((a) => (typeof a === "string" ? a : a.address));
}
