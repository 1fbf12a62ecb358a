import { loadConfig } from "../src";
import { PRODUCTION_BASICS, problemsOf } from "./problems-of";

const base = { DATABASE_URL: "postgresql://x@127.0.0.1/x" };
const oidc = {
  ...base,
  IDENTITY_PROVIDER: "oidc",
  OIDC_ISSUER: "https://broker.example.com",
  OIDC_CLIENT_ID: "esign",
  OIDC_CLIENT_SECRET: "secret",
  OIDC_METHODS: JSON.stringify({ "mitid.dk": { acrValues: "urn:grn:authn:dk:mitid:substantial", nationalIdClaim: "dk:cpr" }, bankid_se: {} }),
};

describe("identity-provider settings", () => {
  it("reads the OpenID Connect adapter's settings, per-method settings from JSON", () => {
    const config = loadConfig(oidc);
    expect(config.IDENTITY_PROVIDER).toBe("oidc");
    expect(config.OIDC_METHODS).toEqual({ "mitid.dk": { acrValues: "urn:grn:authn:dk:mitid:substantial", nationalIdClaim: "dk:cpr" }, bankid_se: {} });
    expect(config.OIDC_CLIENT_AUTH).toBe("client_secret_basic");
    expect(config.OIDC_SCOPES).toBe("openid");
    expect(config.OIDC_TIMEOUT_SECONDS).toBe(10);
    expect(loadConfig(base).IDENTITY_PROVIDER).toBe("simulator");
  });

  it("names every setting the oidc adapter lacks", () => {
    expect(problemsOf({ ...base, IDENTITY_PROVIDER: "oidc" })).toEqual([
      "OIDC_ISSUER: required with IDENTITY_PROVIDER=oidc",
      "OIDC_CLIENT_ID: required with IDENTITY_PROVIDER=oidc",
      "OIDC_CLIENT_SECRET: required with IDENTITY_PROVIDER=oidc",
      expect.stringContaining("OIDC_METHODS: required with IDENTITY_PROVIDER=oidc"),
    ]);
    expect(problemsOf({ ...oidc, OIDC_METHODS: "{}" })).toEqual([expect.stringContaining("OIDC_METHODS: required")]);
  });

  it("refuses OIDC_METHODS that is not JSON, names an unknown method or setting, and scopes without openid", () => {
    expect(problemsOf({ ...oidc, OIDC_METHODS: "mitid.dk" })).toEqual([expect.stringMatching(/^OIDC_METHODS: must be a JSON object/)]);
    expect(problemsOf({ ...oidc, OIDC_METHODS: JSON.stringify({ "mitid.se": {} }) })).toEqual([expect.stringMatching(/^OIDC_METHODS/)]);
    expect(problemsOf({ ...oidc, OIDC_METHODS: JSON.stringify({ "mitid.dk": { acr: "x" } }) })).toEqual([
      expect.stringMatching(/^OIDC_METHODS\.mitid\.dk: Unrecognized key/),
    ]);
    expect(problemsOf({ ...oidc, OIDC_METHODS: JSON.stringify({ "mitid.dk": { scope: "profile" } }) })).toEqual([
      "OIDC_METHODS.mitid.dk.scope: must include openid",
    ]);
    expect(problemsOf({ ...oidc, OIDC_SCOPES: "profile email" })).toEqual(["OIDC_SCOPES: must include openid"]);
    expect(problemsOf({ ...oidc, OIDC_ISSUER: "ftp://broker.example.com" })).toEqual([expect.stringMatching(/^OIDC_ISSUER: /)]);
  });

  it("wants an https issuer in production", () => {
    const production = {
      ...oidc,
      ...PRODUCTION_BASICS,
    };
    expect(problemsOf(production)).toEqual([]);
    expect(problemsOf({ ...production, OIDC_ISSUER: "http://broker.example.com" })).toEqual(["OIDC_ISSUER: must be https in production"]);
  });
});
