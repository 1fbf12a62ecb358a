import { ConfigError, loadConfig } from "../src";

const base = { DATABASE_URL: "postgresql://x@127.0.0.1/x" };
const sso = { ...base, SSO_OIDC_ISSUER: "https://login.example.com", SSO_OIDC_CLIENT_ID: "esign-webapp", SSO_OIDC_CLIENT_SECRET: "secret" };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe("single sign-on settings", () => {
  it("is off without an issuer; with one, reads the client and the defaults", () => {
    expect(loadConfig(base).SSO_OIDC_ISSUER).toBeUndefined();
    const config = loadConfig(sso);
    expect(config.SSO_OIDC_SCOPES).toBe("openid email profile");
    expect(config.SSO_OIDC_CLIENT_AUTH).toBe("client_secret_basic");
    expect(config.SSO_DISPLAY_NAME).toBe("single sign-on");
  });

  it("names the client settings an issuer needs, and refuses scopes without openid", () => {
    expect(problemsOf({ ...base, SSO_OIDC_ISSUER: "https://login.example.com" })).toEqual([
      "SSO_OIDC_CLIENT_ID: required with SSO_OIDC_ISSUER",
      "SSO_OIDC_CLIENT_SECRET: required with SSO_OIDC_ISSUER",
    ]);
    expect(problemsOf({ ...sso, SSO_OIDC_SCOPES: "email profile" })).toEqual(["SSO_OIDC_SCOPES: must include openid"]);
  });

  it("wants an https issuer in production", () => {
    const production = {
      ...sso,
      NODE_ENV: "production",
      JWT_SECRET: "a-production-jwt-secret-0123456789",
      ENCRYPTION_KEY: "9325e83fc7c7c11817299d67f09d4cb773420fcde4d51d61ca3b7d1725bd77d3",
      METRICS_TOKEN: "m".repeat(16),
    };
    expect(problemsOf(production)).toEqual([]);
    expect(problemsOf({ ...production, SSO_OIDC_ISSUER: "http://login.example.com" })).toEqual(["SSO_OIDC_ISSUER: must be https in production"]);
  });
});
