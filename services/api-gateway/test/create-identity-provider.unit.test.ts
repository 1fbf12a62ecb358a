import { loadConfig } from "@esign/config";
import { createIdentityProvider } from "../src/identity/create-identity-provider";
import { IdentityProviderSimulator } from "../src/identity/idp-simulator";
import { OidcIdentityProvider } from "../src/identity/oidc-identity-provider";

const production = {
  NODE_ENV: "production",
  JWT_SECRET: "a-production-jwt-secret-0123456789",
  ENCRYPTION_KEY: "9325e83fc7c7c11817299d67f09d4cb773420fcde4d51d61ca3b7d1725bd77d3",
  METRICS_TOKEN: "m".repeat(16),
};
const oidc = {
  IDENTITY_PROVIDER: "oidc",
  OIDC_ISSUER: "https://broker.example.com",
  OIDC_CLIENT_ID: "esign",
  OIDC_CLIENT_SECRET: "secret",
  OIDC_METHODS: JSON.stringify({ "mitid.dk": {} }),
};

describe("createIdentityProvider", () => {
  it("never creates the simulator in production (secure methods answer 503 there), only in development", () => {
    expect(createIdentityProvider(loadConfig({}))).toBeInstanceOf(IdentityProviderSimulator);
    expect(createIdentityProvider(loadConfig(production))).toBeNull();
  });

  it("creates the OpenID Connect adapter in production, offering only the configured methods", () => {
    const idp = createIdentityProvider(loadConfig({ ...production, ...oidc }));
    expect(idp).toBeInstanceOf(OidcIdentityProvider);
    expect(idp!.displayName).toBe("OpenID Connect (https://broker.example.com)");
    expect(idp!.origin).toBe("https://broker.example.com");
    expect(idp!.supports("mitid.dk")).toBe(true);
    expect(idp!.supports("bankid_se")).toBe(false);
  });
});
