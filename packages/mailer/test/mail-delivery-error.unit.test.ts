import { MailDeliveryError } from "../src";

// The shapes nodemailer gives its errors (lib/smtp-connection _formatError), for the cases a test
// server cannot easily produce.
const smtpError = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? "failed")), fields);

describe("MailDeliveryError.fromSmtpError", () => {
  it.each([
    ["a 554 to the message", { code: "EMESSAGE", command: "DATA", response: "554 5.7.1 Message rejected as spam" }, true, "message", 554],
    ["a 452 to the message", { code: "EMESSAGE", command: "DATA", response: "452 4.3.1 Insufficient storage" }, false, "message", 452],
    ["a 552 size refusal to MAIL FROM", { code: "EENVELOPE", command: "MAIL FROM", response: "552 5.3.4 Message too big" }, true, "message", 552],
    ["a 550 to MAIL FROM (our sender is refused)", { code: "EENVELOPE", command: "MAIL FROM", response: "550 5.7.1 Sender not allowed" }, false, "sender", 550],
    ["a 535 login failure (our configuration)", { code: "EAUTH", command: "AUTH PLAIN", response: "535 5.7.8 Authentication failed" }, false, "auth", 535],
    ["a refused connection", { code: "ESOCKET", command: "CONN", message: "connect ECONNREFUSED 127.0.0.1:25" }, false, "connection", undefined],
    ["a greeting timeout", { code: "ETIMEDOUT", command: "CONN", message: "Greeting never received" }, false, "connection", undefined],
    ["a syntactically impossible recipient", { code: "EENVELOPE", command: "API", message: 'Invalid recipient "x"' }, true, "recipient", undefined],
  ])("classifies %s", (_name, fields, permanent, kind, responseCode) => {
    const err = MailDeliveryError.fromSmtpError(smtpError(fields));
    expect(err.permanent).toBe(permanent);
    expect(err.kind).toBe(kind);
    expect(err.responseCode).toBe(responseCode);
    expect(err.cause).toBeInstanceOf(Error);
  });

  it("passes a MailDeliveryError through unchanged", () => {
    const original = new MailDeliveryError("x", { permanent: true, kind: "recipient", responseCode: 550 });
    expect(MailDeliveryError.fromSmtpError(original)).toBe(original);
  });

  it("treats something that is not an error at all as transient", () => {
    const err = MailDeliveryError.fromSmtpError("socket hang up");
    expect(err.permanent).toBe(false);
    expect(err.kind).toBe("protocol");
  });
});
