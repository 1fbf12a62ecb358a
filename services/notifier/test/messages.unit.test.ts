import { MailDeliveryError } from "@esign/mailer";
import { MailboxDeliveryError } from "../src/channels/mailbox-gateway";
import { completedMessageContent } from "../src/domain/completed-message";
import { EBOKS_DEFAULT_LANGUAGE, EMAIL_DEFAULT_LANGUAGE, resolveLanguage } from "@esign/i18n";
import { classifyFailure } from "../src/domain/notification-records";
import { escapeHtml, paragraphsOf, renderHtml, renderText } from "../src/domain/render-message";
import { signerMessageContent } from "../src/domain/signer-message";
import { signerSettings } from "../src/domain/signer-settings";

const doc = (id: number, title: string, extra: { signable?: boolean; roles?: string[]; documentOrder?: number | null } = {}) => ({
  id,
  title,
  name: `${title}.pdf`,
  signable: extra.signable ?? true,
  roles: extra.roles ?? [],
  documentOrder: extra.documentOrder ?? null,
  fileSha256: "0".repeat(64),
  signedSha256: null,
});

const request = (over: Partial<Parameters<typeof signerMessageContent>[0]> = {}) =>
  signerMessageContent({
    kind: "signing_request",
    language: "en",
    signer: { name: "Ann", role: "Buyer" },
    caseFile: { title: "Deal", senderName: null, customerName: "Acme", sensitiveData: false, visibilityMode: 0 },
    documents: [
      doc(1, "Seller terms", { roles: ["Seller"] }),
      doc(2, "Buyer terms", { roles: ["Buyer"] }),
      doc(3, "Appendix", { signable: false, documentOrder: 0 }),
    ],
    settings: {},
    link: "https://esign.test/sign/tok",
    ...over,
  });

describe("languages", () => {
  it("takes the signer's, then the case file's language, then the channel default; unknown values are skipped", () => {
    expect(resolveLanguage(["da", "sv"], EMAIL_DEFAULT_LANGUAGE)).toBe("da");
    expect(resolveLanguage([null, "sv"], EMAIL_DEFAULT_LANGUAGE)).toBe("sv");
    expect(resolveLanguage([null, null], EMAIL_DEFAULT_LANGUAGE)).toBe("en");
    expect(resolveLanguage([undefined, null], EBOKS_DEFAULT_LANGUAGE)).toBe("da");
    expect(resolveLanguage(["xx", " DE "], EMAIL_DEFAULT_LANGUAGE)).toBe("de");
  });
});

describe("signer messages", () => {
  it("lists the documents in document order, only the signer's own with visibilityMode 1", () => {
    expect(renderText(request())).toContain("Documents:\n- Appendix\n- Seller terms\n- Buyer terms");
    const own = renderText(request({ caseFile: { title: "Deal", senderName: null, customerName: "Acme", sensitiveData: false, visibilityMode: 1 } }));
    expect(own).toContain("Documents:\n- Buyer terms\n\n");
    expect(own).not.toContain("Seller terms");
  });

  it("names the case file's senderName as the sender, else the customer", () => {
    expect(renderText(request())).toContain("Acme has sent you documents to sign");
    expect(
      renderText(request({ caseFile: { title: "Deal", senderName: "Acme HR", customerName: "Acme", sensitiveData: false, visibilityMode: 0 } })),
    ).toContain("Acme HR has sent you documents to sign");
  });

  it("keeps a title with line breaks on one subject line", () => {
    expect(
      request({ caseFile: { title: "Deal\r\nBcc: x@example.com", senderName: null, customerName: "Acme", sensitiveData: false, visibilityMode: 0 } }).subject,
    ).toBe("Please sign: Deal Bcc: x@example.com");
  });

  it("escapes names and titles in HTML, and puts the tracking image only where asked", () => {
    const html = renderHtml(request({ signer: { name: `<script>alert("x")</script>`, role: "Buyer" }, trackingPixelUrl: "https://esign.test/t/1.abc.gif" }));
    expect(html).toContain("Dear &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;,");
    expect(html).not.toContain("<script>");
    expect(html).toContain(`<img src="https://esign.test/t/1.abc.gif" width="1" height="1"`);
    expect(renderHtml(request())).not.toContain("<img");
  });

  it("uses the reminder texts for reminders and the request texts for requests", () => {
    const settings = signerSettings({ emailSubject: "Req subject", emailText: "Req text", reminderEmailSubject: "Rem subject", reminderEmailText: "Rem text" });
    expect(request({ settings }).subject).toBe("Req subject");
    const reminder = request({ kind: "reminder", settings });
    expect(reminder.subject).toBe("Rem subject");
    expect(renderText(reminder)).toContain("Rem text");
    expect(request({ kind: "reminder", settings: {} }).subject).toBe("Reminder: please sign Deal");
  });
});

describe("completion messages", () => {
  const base = {
    audience: "signer" as const,
    language: "da" as const,
    name: "Bo",
    caseFile: { id: 7, title: "Deal", senderName: null, customerName: "Acme", sensitiveData: false },
    documentTitles: ["Buyer terms"],
  };
  it("says whether the documents are attached, in the recipient's language", () => {
    expect(renderText(completedMessageContent({ ...base, attachments: "attached" }))).toContain("De underskrevne dokumenter er vedhæftet denne e-mail.");
    expect(renderText(completedMessageContent({ ...base, attachments: "disabled" }))).toContain("De underskrevne dokumenter er ikke vedhæftet denne e-mail.");
    const sensitive = renderText(completedMessageContent({ ...base, caseFile: { ...base.caseFile, sensitiveData: true }, attachments: "sensitive" }));
    expect(sensitive).not.toContain("Buyer terms");
  });
});

describe("rendering", () => {
  it("splits a customer's text into paragraphs at blank lines", () => {
    expect(paragraphsOf("a\r\nb\r\n\r\n\r\nc\n \n")).toEqual([
      { type: "paragraph", text: "a\nb" },
      { type: "paragraph", text: "c" },
    ]);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("signer settings", () => {
  it("keeps the readable fields when one is unreadable", () => {
    expect(signerSettings({ emailFormat: "pdf", emailSubject: "Hello there", reminderInterval: "3" })).toMatchObject({
      emailFormat: null,
      emailSubject: "Hello there",
      reminderInterval: null,
    });
    expect(signerSettings(null)).toEqual({});
  });
});

describe("classifyFailure", () => {
  it("makes only refusals of the recipient or the message count against the signer", () => {
    expect(classifyFailure(new MailDeliveryError("x", { permanent: true, kind: "recipient", responseCode: 550 }))).toBe("permanent");
    expect(classifyFailure(new MailDeliveryError("x", { permanent: true, kind: "message", responseCode: 554 }))).toBe("permanent");
    expect(classifyFailure(new MailDeliveryError("x", { permanent: false, kind: "recipient", responseCode: 451 }))).toBe("bounce");
    expect(classifyFailure(new MailDeliveryError("x", { permanent: false, kind: "auth", responseCode: 535 }))).toBe("retry");
    expect(classifyFailure(new MailDeliveryError("x", { permanent: false, kind: "connection" }))).toBe("retry");
    expect(classifyFailure(new MailboxDeliveryError("no mailbox", true))).toBe("permanent");
    expect(classifyFailure(new MailboxDeliveryError("gateway down", false))).toBe("retry");
    expect(classifyFailure(new Error("boom"))).toBe("retry");
  });
});
