import { formatWhen, signerLanguage, visitorLanguage } from "../src/signing/messages/catalog";

describe("the language of a signer's pages", () => {
  it("is the signer's, then the case file's, then the channel's default (e-Boks Danish, email English)", () => {
    expect(signerLanguage({ language: "sv", channel: "email" }, { language: "da" })).toBe("sv");
    expect(signerLanguage({ language: null, channel: "email" }, { language: "nl" })).toBe("nl");
    expect(signerLanguage({ language: null, channel: "email" }, { language: null })).toBe("en");
    expect(signerLanguage({ language: null, channel: "eboks" }, { language: null })).toBe("da");
    expect(signerLanguage({ language: "xx", channel: "eboks" }, { language: "fi" })).toBe("fi");
  });

  it("follows the browser only where no signer is known, else English", () => {
    expect(visitorLanguage("nb-NO,nb;q=0.9")).toBe("no");
    expect(visitorLanguage("pt-BR")).toBe("en");
    expect(visitorLanguage(undefined)).toBe("en");
  });

  it("writes dates the language's own way, always in UTC", () => {
    const at = new Date("2026-12-01T09:05:00Z");
    expect(formatWhen("da", at)).toBe("1. december 2026 kl. 09.05 UTC");
    expect(formatWhen("de", at)).toBe("1. Dezember 2026 um 09:05 UTC");
    expect(formatWhen("fi", at)).toBe("1. joulukuuta 2026 klo 9.05 UTC");
    expect(formatWhen("en", at)).toBe("1 December 2026 at 09:05 UTC");
  });
});
