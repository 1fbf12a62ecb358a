import { createHmac } from "node:crypto";
import { issueToken, verifyToken, type TokenSettings } from "../src/auth/jwt";

// Each test its own secret: the cache of verified tokens is per secret, issuer and audience.
let n = 0;
const settings = (): TokenSettings => ({
  JWT_SECRET: `verify-token-test-secret-${++n}-${process.pid}`,
  JWT_ISSUER: "esign-api-gateway",
  JWT_AUDIENCE: "esign-api",
});
const principal = { userId: 7, customerId: 3, clientId: "client-a" };

/** The token with its signature's last character changed: same header and claims, wrong signature. */
function tampered(token: string): string {
  const last = token.at(-1) === "A" ? "B" : "A";
  return `${token.slice(0, -1)}${last}`;
}

describe("verifyToken and its cache of verified tokens", () => {
  it("answers the principal for a token it issued, again and again", () => {
    const s = settings();
    const { access_token } = issueToken({ ...s, JWT_TTL_SECONDS: 3600 }, principal);
    expect(verifyToken(s, access_token)).toEqual({ ...principal, issuedAtMs: expect.any(Number) });
    expect(verifyToken(s, access_token)).toEqual({ ...principal, issuedAtMs: expect.any(Number) });
  });

  it("rejects a cached token from the second its exp is reached, as a fresh verify would", () => {
    const s = settings();
    const issued = issueToken({ ...s, JWT_TTL_SECONDS: 60 }, principal);
    const expMs = issued.access_token_expires_at * 1000;
    expect(verifyToken(s, issued.access_token, expMs - 1000)).toEqual({ ...principal, issuedAtMs: expect.any(Number) }); // now cached
    expect(verifyToken(s, issued.access_token, expMs - 1)).toEqual({ ...principal, issuedAtMs: expect.any(Number) });
    expect(verifyToken(s, issued.access_token, expMs)).toBeNull();
    // Later still: the entry is gone and the full verify refuses it too.
    expect(verifyToken(s, issued.access_token, expMs + 5000)).toBeNull();
  });

  it("never lets a token that differs from a cached one in its signature through", () => {
    const s = settings();
    const { access_token } = issueToken({ ...s, JWT_TTL_SECONDS: 3600 }, principal);
    expect(verifyToken(s, access_token)).toEqual({ ...principal, issuedAtMs: expect.any(Number) });
    expect(verifyToken(s, tampered(access_token))).toBeNull();
  });

  it("does not answer from the cache of another secret, issuer or audience", () => {
    const s = settings();
    const { access_token } = issueToken({ ...s, JWT_TTL_SECONDS: 3600 }, principal);
    expect(verifyToken(s, access_token)).toEqual({ ...principal, issuedAtMs: expect.any(Number) });
    expect(verifyToken({ ...s, JWT_SECRET: `${s.JWT_SECRET}-rotated` }, access_token)).toBeNull();
    expect(verifyToken({ ...s, JWT_AUDIENCE: "another-api" }, access_token)).toBeNull();
    expect(verifyToken({ ...s, JWT_ISSUER: "another-issuer" }, access_token)).toBeNull();
  });

  it("caches only successes: a token refused once is refused again", () => {
    const s = settings();
    const header = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const claims = Buffer.from(JSON.stringify({ sub: "7", cid: 3, azp: "c", iss: s.JWT_ISSUER, aud: s.JWT_AUDIENCE, exp: now - 1 })).toString("base64url");
    const sig = createHmac("sha256", s.JWT_SECRET).update(`${header}.${claims}`).digest("base64url");
    const expired = `${header}.${claims}.${sig}`;
    expect(verifyToken(s, expired)).toBeNull();
    expect(verifyToken(s, expired)).toBeNull();
  });

  it("hands out a principal nobody can change for the next request", () => {
    const s = settings();
    const { access_token } = issueToken({ ...s, JWT_TTL_SECONDS: 3600 }, principal);
    const p = verifyToken(s, access_token)!;
    expect(Object.isFrozen(p)).toBe(true);
  });
});
