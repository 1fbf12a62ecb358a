import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerError, type SMTPServerSession } from "smtp-server";

/*
 * A real SMTP server for tests: the code under test speaks SMTP over a socket exactly as it would to a
 * production relay, and the test reads back what arrived (or makes the server refuse recipients).
 * Plain text on 127.0.0.1 only, no TLS, any login accepted; sizes, counts and timeouts are bounded so
 * a misbehaving test cannot eat the machine.
 */

export interface SinkAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface SinkMessage {
  /** MAIL FROM of the envelope. */
  from: string;
  /** RCPT TO addresses the server accepted for this message. */
  to: string[];
  /** The whole message as received (CRLF line ends, headers and MIME body). */
  raw: string;
  /** Header names in lower case; the first occurrence wins. */
  headers: Record<string, string>;
  /** Subject with RFC 2047 encoded words decoded. */
  subject: string;
  /** The first text/plain part, transfer encoding and charset decoded ("" when there is none). */
  text: string;
  html?: string;
  attachments: SinkAttachment[];
  /** The login name when the client authenticated. */
  user?: string;
  receivedAt: Date;
}

/** The reply for a refused RCPT TO: 5xx for an undeliverable address, 4xx for a temporary refusal. */
export interface RejectReply {
  code: number;
  message?: string;
}

export interface RecipientRule extends RejectReply {
  /** An exact address (case-insensitive) or a pattern over the address. */
  match: string | RegExp;
}

export interface SmtpSinkOptions {
  rejectRecipients?: RecipientRule[];
  /** Kept messages; older ones are dropped beyond this. */
  maxMessages?: number;
  /** Larger messages are refused with 552. */
  maxMessageBytes?: number;
}

export interface RejectionRecord {
  address: string;
  code: number;
  at: Date;
}

const DEFAULT_MAX_MESSAGES = 500;
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

export class SmtpSink {
  private server: SMTPServer | undefined;
  private portNumber = 0;
  private readonly received: SinkMessage[] = [];
  private readonly refused: RejectionRecord[] = [];
  private rules: RecipientRule[];
  private readonly waiters = new Set<() => void>();
  private readonly maxMessages: number;
  private readonly maxBytes: number;

  constructor(options: SmtpSinkOptions = {}) {
    this.rules = [...(options.rejectRecipients ?? [])];
    this.maxMessages = options.maxMessages ?? DEFAULT_MAX_MESSAGES;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_BYTES;
  }

  /** Listens on 127.0.0.1 on a port the kernel picks (no race with other test files). */
  async start(): Promise<this> {
    if (this.server) return this;
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ["STARTTLS"],
      authOptional: true,
      allowInsecureAuth: true,
      disableReverseLookup: true,
      logger: false,
      banner: "esign test sink",
      size: this.maxBytes,
      maxClients: 50,
      socketTimeout: 10_000,
      // Pooled clients keep idle connections open; stop() should not wait the default 30 s for them.
      closeTimeout: 500,
      onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? "anonymous" }),
      onRcptTo: (address, _session, callback) => {
        const reply = this.ruleFor(address.address);
        if (!reply) return callback();
        this.refused.push({ address: address.address, code: reply.code, at: new Date() });
        const err: SMTPServerError = new Error(reply.message ?? (reply.code >= 500 ? "Mailbox unavailable" : "Try again later"));
        err.responseCode = reply.code;
        callback(err);
      },
      onData: (stream, session, callback) => this.collect(stream, session, callback),
    });
    server.on("error", () => {
      // A client dropping its socket mid-command is routine in tests; the affected test fails on its own.
    });
    await new Promise<void>((resolve, reject) => {
      const net = server.listen(0, "127.0.0.1", () => resolve());
      net.once("error", reject);
    });
    this.server = server;
    this.portNumber = (server.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const wake of this.waiters) wake();
  }

  get port(): number {
    return this.portNumber;
  }

  /** What SMTP_URL should say to reach this server. */
  get url(): string {
    return `smtp://127.0.0.1:${this.portNumber}`;
  }

  get messages(): SinkMessage[] {
    return [...this.received];
  }

  /** Every RCPT TO the sink refused, in order. */
  get rejections(): RejectionRecord[] {
    return [...this.refused];
  }

  /** Messages delivered to this address (envelope, case-insensitive). */
  messagesTo(address: string): SinkMessage[] {
    const a = address.toLowerCase();
    return this.received.filter((m) => m.to.some((t) => t.toLowerCase() === a));
  }

  /** Refuse matching recipients from now on (a later rule for the same address wins). */
  rejectRecipient(match: string | RegExp, code: number, message?: string): void {
    this.rules.unshift({ match, code, message });
  }

  /** Accept matching recipients again; with no argument, accept everyone. */
  acceptRecipient(match?: string | RegExp): void {
    this.rules = match === undefined ? [] : this.rules.filter((r) => String(r.match) !== String(match));
  }

  clear(): void {
    this.received.length = 0;
    this.refused.length = 0;
  }

  /** The first message (already received or arriving later) that satisfies the predicate. */
  async waitFor(predicate: (m: SinkMessage) => boolean, timeoutMs = 10_000): Promise<SinkMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.received.find(predicate);
      if (hit) return hit;
      const left = deadline - Date.now();
      if (left <= 0 || !this.server) {
        const seen = this.received.map((m) => `${m.subject} -> ${m.to.join(",")}`).join("; ") || "none";
        throw new Error(`smtp sink: no matching message within ${timeoutMs} ms (received: ${seen})`);
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  /** The first refusal (already made or later) of this address. */
  async waitForRejection(address: string, timeoutMs = 10_000): Promise<RejectionRecord> {
    const deadline = Date.now() + timeoutMs;
    const a = address.toLowerCase();
    for (;;) {
      const hit = this.refused.find((r) => r.address.toLowerCase() === a);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`smtp sink: ${address} was not refused within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private ruleFor(address: string): RejectReply | undefined {
    const a = address.toLowerCase();
    return this.rules.find((r) => (typeof r.match === "string" ? r.match.toLowerCase() === a : r.match.test(address)));
  }

  private collect(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void): void {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= this.maxBytes) chunks.push(chunk);
    });
    stream.on("error", (err: Error) => callback(err));
    stream.on("end", () => {
      if (stream.sizeExceeded || size > this.maxBytes) {
        const err: SMTPServerError = new Error("Message exceeds fixed maximum message size");
        err.responseCode = 552;
        return callback(err);
      }
      const raw = Buffer.concat(chunks);
      const mailFrom = session.envelope.mailFrom;
      const parsed = parseMessage(raw);
      this.received.push({
        from: mailFrom ? mailFrom.address : "",
        to: session.envelope.rcptTo.map((r) => r.address),
        raw: raw.toString("utf8"),
        headers: parsed.headers,
        subject: decodeWords(parsed.headers.subject ?? ""),
        text: parsed.text ?? "",
        html: parsed.html,
        attachments: parsed.attachments,
        user: typeof session.user === "string" ? session.user : undefined,
        receivedAt: new Date(),
      });
      if (this.received.length > this.maxMessages) this.received.shift();
      for (const wake of [...this.waiters]) wake();
      callback();
    });
  }
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  return new SmtpSink(options).start();
}

/* ---- A small MIME reader: enough for the messages nodemailer builds (mailparser is not a dependency). ---- */

interface ParsedPart {
  headers: Record<string, string>;
  text?: string;
  html?: string;
  attachments: SinkAttachment[];
}

/** Headers unfolded, names lower-cased, first occurrence kept. */
export function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const unfolded = block.replace(/\r?\n[ \t]+/g, " ");
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // Raw 8-bit header bytes (SMTPUTF8) arrive as latin1 text here; they are meant as UTF-8.
    if (!(name in headers)) headers[name] = Buffer.from(line.slice(colon + 1).trim(), "latin1").toString("utf8");
  }
  return headers;
}

/** A header's parameter (`boundary`, `charset`, `filename`), quoted or not. */
function paramOf(value: string | undefined, name: string): string | undefined {
  const m = value?.match(new RegExp(`(?:^|;)\\s*${name}\\*?=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, "i"));
  if (!m) return undefined;
  return (m[1] ?? m[2] ?? "").replace(/\\(.)/g, "$1");
}

function decodeCharset(bytes: Buffer, charset = "utf-8"): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString("latin1");
  }
}

function decodeQuotedPrintable(body: string): Buffer {
  const soft = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    const hex = soft.slice(i + 1, i + 3);
    if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(soft.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 `=?charset?Q|B?...?=` words; whitespace between two encoded words is dropped. */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?[^?]+\?[QqBb]\?[^?]*\?=)/g, "$1")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, charset: string, enc: string, text: string) => {
      const bytes = enc.toUpperCase() === "B" ? Buffer.from(text, "base64") : decodeQuotedPrintable(text.replace(/_/g, " "));
      return decodeCharset(bytes, charset);
    });
}

/**
 * Reads a message (or a MIME part). The body is handled as latin1 text so every byte survives the
 * string operations; each leaf is turned back into bytes before its charset is decoded.
 */
function parsePart(raw: string, depth = 0): ParsedPart {
  const split = raw.search(/\r?\n\r?\n/);
  const headerBlock = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers = parseHeaders(headerBlock);
  const type = (headers["content-type"] ?? "text/plain").split(";")[0]!.trim().toLowerCase();
  const out: ParsedPart = { headers, attachments: [] };

  if (type.startsWith("multipart/")) {
    const boundary = paramOf(headers["content-type"], "boundary");
    if (!boundary || depth > 5) return out;
    const b = boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // Parts sit between `--boundary` lines; the preamble before the first and the epilogue after `--boundary--` are not parts.
    const closing = body.search(new RegExp(`(?:^|\\r?\\n)--${b}--`));
    const inner = closing < 0 ? body : body.slice(0, closing);
    const sections = inner.split(new RegExp(`(?:^|\\r?\\n)--${b}[ \\t]*\\r?\\n`));
    for (const section of sections.slice(1)) {
      if (section.trim() === "") continue;
      const part = parsePart(section, depth + 1);
      out.text ??= part.text;
      out.html ??= part.html;
      out.attachments.push(...part.attachments);
    }
    return out;
  }

  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  const bytes =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(body)
        : Buffer.from(body, "latin1");
  const disposition = headers["content-disposition"] ?? "";
  const filename = paramOf(disposition, "filename") ?? paramOf(headers["content-type"], "name");
  if (/^attachment/i.test(disposition) || (filename && !type.startsWith("text/"))) {
    out.attachments.push({ filename: decodeWords(filename ?? ""), contentType: type, content: bytes });
  } else if (type === "text/plain") {
    out.text = decodeCharset(bytes, paramOf(headers["content-type"], "charset"));
  } else if (type === "text/html") {
    out.html = decodeCharset(bytes, paramOf(headers["content-type"], "charset"));
  }
  return out;
}

export function parseMessage(raw: Buffer): ParsedPart {
  return parsePart(raw.toString("latin1"));
}
