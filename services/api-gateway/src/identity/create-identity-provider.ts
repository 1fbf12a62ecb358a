import type { AppConfig } from "@esign/config";
import type { IdentityProvider } from "./identity-provider";
import { IdentityProviderSimulator } from "./idp-simulator";

/**
 * The configured provider. The simulator approves whoever clicks its button, so it is refused in
 * production: there, secure methods answer 503 until a real adapter is configured.
 */
export function createIdentityProvider(config: AppConfig): IdentityProvider | null {
  switch (config.IDENTITY_PROVIDER) {
    case "simulator":
      return config.production ? null : new IdentityProviderSimulator(config.PUBLIC_BASE_URL, config.ENCRYPTION_KEY);
  }
}
