import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { FileOutboxMailer, SmtpMailer, createMailer, type MailerLogger, type OutboxSummary } from "../src";
import { parseMessage } from "../../../test/support/smtp-sink";

const FROM = "E-Sign <no-reply@esign.local>";
const tempDir = () => mkdtempSync(path.join(process.env.ESIGN_TEST_DIR ?? os.tmpdir(), "outbox-"));

function spyLogger() {
  const lines: { level: string; message: string; meta?: Record<string, unknown> }[] = [];
  const logger: MailerLogger = {
    info: (message, meta) => lines.push({ level: "info", message, meta }),
    warn: (message, meta) => lines.push({ level: "warn", message, meta }),
  };
  return { logger, lines };
}

describe("FileOutboxMailer", () => {
  it("writes each message as a readable .eml plus a .json summary", async () => {
    const dir = path.join(tempDir(), "nested", "outbox");
    const mailer = new FileOutboxMailer({ dir, defaultFrom: FROM });
    const pdf = Buffer.from("%PDF-1.7 attachment bytes");
    const result = await mailer.send({
      to: ["alice@example.com"],
      cc: ["hr@example.com"],
      subject: "Webhook subscription disabled: https://hooks.example.com/x",
      text: "Line one\nLine two with æøå\n",
      fromName: "Acme",
      attachments: [{ filename: "contract.pdf", content: pdf, contentType: "application/pdf" }],
    });
    expect(result.accepted).toEqual(["alice@example.com", "hr@example.com"]);
    expect(result.rejected).toEqual([]);

    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    const eml = files.find((f) => f.endsWith(".eml"))!;
    const json = files.find((f) => f.endsWith(".json"))!;
    expect(eml.replace(/\.eml$/, "")).toBe(json.replace(/\.json$/, ""));

    const raw = readFileSync(path.join(dir, eml));
    expect(raw.toString("latin1")).toMatch(/^[\x20-\x7e\r\n\t]+$/); // 7-bit clean: opens in any mail client
    expect(raw.toString()).toContain("\r\nMIME-Version: 1.0\r\n");
    const parsed = parseMessage(raw);
    expect(parsed.headers.from).toBe("Acme <no-reply@esign.local>");
    expect(parsed.headers.to).toBe("alice@example.com");
    expect(parsed.headers["message-id"]).toBe(result.messageId);
    expect(parsed.text?.replace(/\r\n/g, "\n")).toBe("Line one\nLine two with æøå\n");
    expect(parsed.attachments[0]?.content.equals(pdf)).toBe(true);

    const summary = JSON.parse(readFileSync(path.join(dir, json), "utf8")) as OutboxSummary;
    expect(summary).toMatchObject({
      messageId: result.messageId,
      file: path.join(dir, eml),
      from: "no-reply@esign.local",
      to: ["alice@example.com"],
      cc: ["hr@example.com"],
      subject: "Webhook subscription disabled: https://hooks.example.com/x",
      attachments: [{ filename: "contract.pdf", contentType: "application/pdf", size: pdf.length }],
    });
  });

  it("keeps every message when many are written at once", async () => {
    const dir = tempDir();
    const mailer = new FileOutboxMailer({ dir, defaultFrom: FROM });
    await Promise.all(Array.from({ length: 20 }, (_, i) => mailer.send({ to: [`u${i}@example.com`], subject: `m${i}`, text: "x" })));
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith(".eml"))).toHaveLength(20);
    expect(files.filter((f) => f.endsWith(".json"))).toHaveLength(20);
    expect(files.filter((f) => f.endsWith(".tmp"))).toHaveLength(0);
  });

  it("makes its folder again when it is removed between messages", async () => {
    const dir = path.join(tempDir(), "outbox");
    const mailer = new FileOutboxMailer({ dir, defaultFrom: FROM });
    await mailer.send({ to: ["a@example.com"], subject: "first", text: "x" });
    rmSync(dir, { recursive: true });
    await mailer.send({ to: ["b@example.com"], subject: "second", text: "x" });
    expect(readdirSync(dir).filter((f) => f.endsWith(".eml"))).toHaveLength(1);
  });
});

describe("createMailer", () => {
  it("defaults to the file outbox without SMTP_URL and says so", () => {
    const { logger, lines } = spyLogger();
    const dir = tempDir();
    const mailer = createMailer({ MAIL_FROM: FROM, MAIL_OUTBOX_DIR: dir }, logger);
    expect(mailer).toBeInstanceOf(FileOutboxMailer);
    expect(lines).toEqual([expect.objectContaining({ level: "info", message: expect.stringMatching(/no SMTP_URL.*development default/) })]);
    expect(lines[0]!.meta).toEqual({ mailer: "file-outbox", dir });
  });

  it("warns when production has no SMTP_URL", () => {
    const { logger, lines } = spyLogger();
    createMailer({ MAIL_FROM: FROM, MAIL_OUTBOX_DIR: tempDir(), production: true }, logger);
    expect(lines[0]).toMatchObject({ level: "warn", message: expect.stringMatching(/nobody receives it/) });
  });

  it("uses SMTP when SMTP_URL is set and logs the server without its password", async () => {
    const { logger, lines } = spyLogger();
    const mailer = createMailer({ SMTP_URL: "smtp://user:hunter2@mail.example.com:2525", MAIL_FROM: FROM, MAIL_OUTBOX_DIR: tempDir() }, logger);
    await mailer.close?.();
    expect(mailer).toBeInstanceOf(SmtpMailer);
    expect(lines[0]).toMatchObject({ level: "info", meta: { mailer: "smtp", smtp: "smtp://mail.example.com:2525" } });
    expect(JSON.stringify(lines)).not.toContain("hunter2");
  });

  it("refuses an SMTP_URL that is not smtp:// or smtps://", () => {
    const { logger } = spyLogger();
    expect(() => createMailer({ SMTP_URL: "http://mail.example.com", MAIL_FROM: FROM, MAIL_OUTBOX_DIR: tempDir() }, logger)).toThrow(/smtp:\/\//);
    expect(() => createMailer({ SMTP_URL: "not a url", MAIL_FROM: FROM, MAIL_OUTBOX_DIR: tempDir() }, logger)).toThrow(/not a URL/);
  });
});
