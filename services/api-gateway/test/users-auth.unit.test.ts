import { hashPassword, PASSWORD_MIN_LENGTH, verifyDecoy, verifyPassword } from "@esign/accounts";
import { platformSigningMethods } from "../src/company/company-settings";
import { sessionCookieOf } from "../src/auth/session-cookie";
import { visibleCaseFiles } from "../src/auth/visibility";
import { SECURE_SIGNING_METHODS } from "@esign/schema";
import type { Request } from "express";

const withCookie = (cookie: string | undefined) => ({ header: (name: string) => (name.toLowerCase() === "cookie" ? cookie : undefined) }) as unknown as Request;

describe("passwords (scrypt, parameters and salt in the stored value)", () => {
  it("verifies the password it was made from, and nothing else; each hash has its own salt", async () => {
    const a = await hashPassword("correct horse battery staple");
    const b = await hashPassword("correct horse battery staple");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    await expect(verifyPassword("correct horse battery staple", a)).resolves.toBe(true);
    await expect(verifyPassword("correct horse battery stapler", a)).resolves.toBe(false);
    await expect(verifyPassword("anything", "not a hash")).resolves.toBe(false);
    await expect(verifyDecoy("anything")).resolves.toBe(false);
    expect(PASSWORD_MIN_LENGTH).toBe(12);
  });
});

describe("the session cookie", () => {
  it("is read from the Cookie header among others, and only when it looks like one of ours", () => {
    const token = "A".repeat(43);
    expect(sessionCookieOf(withCookie(`a=1; esign_session=${token}; b=2`))).toBe(token);
    expect(sessionCookieOf(withCookie("esign_session=short"))).toBeUndefined();
    expect(sessionCookieOf(withCookie("esign_admin_session=x".repeat(3)))).toBeUndefined();
    expect(sessionCookieOf(withCookie(undefined))).toBeUndefined();
  });
});

describe("visibility", () => {
  it("restricts a member to their own case files and shared folders; an admin is not restricted", () => {
    expect(visibleCaseFiles({ userId: 7, role: "admin" })).toEqual({});
    expect(visibleCaseFiles({ userId: 7, role: "member" })).toEqual({ OR: [{ userId: 7 }, { folder: { shares: { some: { userId: 7 } } } }] });
  });
});

describe("the platform's signing methods", () => {
  it("are every method with the simulator, and only those OIDC_METHODS sets up with OpenID Connect", () => {
    expect(platformSigningMethods({ IDENTITY_PROVIDER: "simulator", OIDC_METHODS: undefined })).toEqual([...SECURE_SIGNING_METHODS]);
    expect(platformSigningMethods({ IDENTITY_PROVIDER: "oidc", OIDC_METHODS: { "mitid.dk": {} } })).toEqual(["mitid.dk"]);
    expect(platformSigningMethods({ IDENTITY_PROVIDER: "oidc", OIDC_METHODS: undefined })).toEqual([]);
  });
});
