import { TEST_ENCRYPTION_KEY } from "./api";
import type { OidcTestProvider } from "./oidc-test-provider";
import { startSystem, type System } from "./system";

export const SSO_CALLBACK_PATH = "/api/v3/session/sso/callback";

/**
 * Two gateways in production mode for the single sign-on tests: one with SSO at the test OpenID
 * provider (whose redirect URI it becomes), one without SSO settings.
 */
export async function startSsoGateways(provider: OidcTestProvider, displayName: string): Promise<{ sso: System; plain: System }> {
  const production = {
    NODE_ENV: "production",
    JWT_SECRET: "sso-test-jwt-secret-of-at-least-32-characters",
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    METRICS_TOKEN: "sso-test-metrics-token",
    JOB_POLL_LIMIT_PER_MINUTE: "0",
  };
  const [sso, plain] = await Promise.all([
    startSystem(
      [],
      {},
      {
        ...production,
        SSO_OIDC_ISSUER: provider.issuer,
        SSO_OIDC_CLIENT_ID: provider.clientId,
        SSO_OIDC_CLIENT_SECRET: provider.clientSecret,
        SSO_DISPLAY_NAME: displayName,
        // The gateway trusts the test CA the way a production machine trusts the public ones.
        NODE_EXTRA_CA_CERTS: provider.ca.caFile,
      },
    ),
    startSystem([], {}, production),
  ]);
  await provider.setRedirectUri(`${sso.gateway.url}${SSO_CALLBACK_PATH}`);
  return { sso, plain };
}
