import { MailDeliveryError, SmtpMailer } from "../src";
import { freePort } from "../../../test/support/ports";
import { startSmtpSink, type SmtpSink } from "../../../test/support/smtp-sink";

const FROM = "E-Sign <no-reply@esign.local>";
let sink: SmtpSink;
let mailer: SmtpMailer;

beforeAll(async () => {
  sink = await startSmtpSink({
    rejectRecipients: [
      { match: "gone@example.com", code: 550, message: "5.1.1 No such user" },
      { match: "busy@example.com", code: 451, message: "4.2.0 Mailbox busy, try later" },
    ],
  });
  mailer = new SmtpMailer({ url: sink.url, defaultFrom: FROM });
});

afterAll(async () => {
  await mailer?.close();
  await sink?.stop();
});

async function deliveryError(p: Promise<unknown>): Promise<MailDeliveryError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof MailDeliveryError)) throw new Error(`expected a MailDeliveryError, got ${String(err)}`);
  return err;
}

describe("SmtpMailer against a real SMTP server", () => {
  it("delivers a message with its sender, recipients, subject, body, headers and attachment", async () => {
    const pdf = Buffer.from("%PDF-1.7\n% not really a pdf, but binary enough: \u00ff\u0000\u00fe\n%%EOF\n", "latin1");
    const result = await mailer.send({
      to: ["alice@example.com"],
      cc: ["bob@example.com"],
      subject: "Please sign: Employment contract – Ærø",
      text: "Hello Alice,\n\nplease sign the contract (æøå).\n",
      html: "<p>Hello Alice</p>",
      fromName: "Acme HR",
      headers: { "X-Esign-Test": "delivered" },
      attachments: [{ filename: "contract.pdf", content: pdf, contentType: "application/pdf" }],
    });

    expect(result.accepted.sort()).toEqual(["alice@example.com", "bob@example.com"]);
    expect(result.rejected).toEqual([]);
    expect(result.messageId).toMatch(/^<.+@esign\.local>$/);

    const msg = await sink.waitFor((m) => m.headers["x-esign-test"] === "delivered");
    expect(msg.from).toBe("no-reply@esign.local");
    expect(msg.to.sort()).toEqual(["alice@example.com", "bob@example.com"]);
    expect(msg.subject).toBe("Please sign: Employment contract – Ærø");
    expect(msg.headers.from).toBe("Acme HR <no-reply@esign.local>");
    expect(msg.headers.cc).toBe("bob@example.com");
    expect(msg.headers["message-id"]).toBe(result.messageId);
    expect(msg.text).toContain("please sign the contract (æøå).");
    expect(msg.html).toBe("<p>Hello Alice</p>");
    expect(msg.attachments).toHaveLength(1);
    expect(msg.attachments[0]!.filename).toBe("contract.pdf");
    expect(msg.attachments[0]!.contentType).toBe("application/pdf");
    expect(msg.attachments[0]!.content.equals(pdf)).toBe(true);
  });

  it("uses MAIL_FROM's display name when the message names no sender", async () => {
    await mailer.send({ to: ["carol@example.com"], subject: "default sender", text: "x" });
    const msg = await sink.waitFor((m) => m.subject === "default sender");
    // nodemailer quotes a display name holding "-"; mail clients show it as E-Sign.
    expect(msg.headers.from).toBe('"E-Sign" <no-reply@esign.local>');
  });

  it("turns a 550 for the only recipient into a permanent MailDeliveryError carrying 550", async () => {
    const err = await deliveryError(mailer.send({ to: ["gone@example.com"], subject: "to nobody", text: "x" }));
    expect(err.permanent).toBe(true);
    expect(err.responseCode).toBe(550);
    expect(err.kind).toBe("recipient");
    expect(err.command).toBe("RCPT TO");
    expect(err.rejections).toEqual([expect.objectContaining({ recipient: "gone@example.com", responseCode: 550, permanent: true })]);
    expect(err.message).toMatch(/No such user/);
    expect(sink.messagesTo("gone@example.com")).toHaveLength(0);
  });

  it("turns a 451 into a transient MailDeliveryError carrying 451", async () => {
    const err = await deliveryError(mailer.send({ to: ["busy@example.com"], subject: "try later", text: "x" }));
    expect(err.permanent).toBe(false);
    expect(err.responseCode).toBe(451);
    expect(err.kind).toBe("recipient");
  });

  it("counts a refusal as transient while any refused recipient may still take the message", async () => {
    const err = await deliveryError(mailer.send({ to: ["gone@example.com", "busy@example.com"], subject: "mixed", text: "x" }));
    expect(err.permanent).toBe(false);
    expect(err.responseCode).toBe(451);
    expect(err.rejections.map((r) => [r.recipient, r.responseCode])).toEqual([
      ["gone@example.com", 550],
      ["busy@example.com", 451],
    ]);
  });

  it("delivers to the accepted recipients and reports the refused ones when only some are refused", async () => {
    const result = await mailer.send({ to: ["dave@example.com", "gone@example.com"], subject: "partly", text: "x" });
    expect(result.accepted).toEqual(["dave@example.com"]);
    expect(result.rejected).toEqual(["gone@example.com"]);
    expect(result.rejections).toEqual([expect.objectContaining({ recipient: "gone@example.com", responseCode: 550, permanent: true })]);
    const msg = await sink.waitFor((m) => m.subject === "partly");
    expect(msg.to).toEqual(["dave@example.com"]);
  });

  it("logs in with the credentials of SMTP_URL", async () => {
    const withLogin = new SmtpMailer({ url: `smtp://mailer-user:s3cret@127.0.0.1:${sink.port}`, defaultFrom: FROM });
    try {
      await withLogin.send({ to: ["erin@example.com"], subject: "with login", text: "x" });
    } finally {
      await withLogin.close();
    }
    expect((await sink.waitFor((m) => m.subject === "with login")).user).toBe("mailer-user");
  });

  it("reports an unreachable server as a transient connection failure", async () => {
    const nowhere = new SmtpMailer({ url: `smtp://127.0.0.1:${await freePort()}`, defaultFrom: FROM, connectionTimeoutMs: 2000 });
    try {
      const err = await deliveryError(nowhere.send({ to: ["frank@example.com"], subject: "lost", text: "x" }));
      expect(err.permanent).toBe(false);
      expect(err.kind).toBe("connection");
      expect(err.responseCode).toBeUndefined();
    } finally {
      await nowhere.close();
    }
  });

  it("refuses a message without recipients before talking to the server", async () => {
    const err = await deliveryError(mailer.send({ to: [], subject: "nobody", text: "x" }));
    expect(err.permanent).toBe(true);
    expect(err.kind).toBe("recipient");
  });
});
