import { loadConfig } from "../src";
import { PRODUCTION_BASICS, problemsOf } from "./problems-of";

const base = { DATABASE_URL: "postgresql://x@127.0.0.1/x" };
const sso = { ...base, SSO_OIDC_ISSUER: "https://login.example.com", SSO_OIDC_CLIENT_ID: "esign-webapp", SSO_OIDC_CLIENT_SECRET: "secret" };

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
      ...PRODUCTION_BASICS,
    };
    expect(problemsOf(production)).toEqual([]);
    expect(problemsOf({ ...production, SSO_OIDC_ISSUER: "http://login.example.com" })).toEqual(["SSO_OIDC_ISSUER: must be https in production"]);
  });
});
