import type { AppConfig } from "@esign/config";
import type { IdentityProvider } from "./identity-provider";
import { IdentityProviderSimulator } from "./idp-simulator";
import { OidcIdentityProvider } from "./oidc-identity-provider";

/**
 * The configured provider. The simulator approves whoever clicks its button, so it is refused in
 * production: there, secure methods answer 503 unless the OpenID Connect adapter is configured.
 * loadConfig has already refused an `oidc` setting without issuer, client or methods.
 */
export function createIdentityProvider(config: AppConfig): IdentityProvider | null {
  switch (config.IDENTITY_PROVIDER) {
    case "simulator":
      return config.production ? null : new IdentityProviderSimulator(config.PUBLIC_BASE_URL, config.ENCRYPTION_KEY);
    case "oidc": {
      const issuer = config.OIDC_ISSUER ?? "";
      return new OidcIdentityProvider(
        {
          issuer,
          clientId: config.OIDC_CLIENT_ID ?? "",
          clientSecret: config.OIDC_CLIENT_SECRET ?? "",
          clientAuth: config.OIDC_CLIENT_AUTH,
          scopes: config.OIDC_SCOPES,
          nationalIdClaim: config.OIDC_NATIONAL_ID_CLAIM,
          methods: config.OIDC_METHODS ?? {},
          displayName: config.OIDC_DISPLAY_NAME ?? `OpenID Connect (${issuer})`,
          timeoutSeconds: config.OIDC_TIMEOUT_SECONDS,
          allowHttp: !config.production,
        },
        config.ENCRYPTION_KEY,
      );
    }
  }
}
