export { loadConfig, ConfigError, ZEnv } from "./load-config";
export type { AppConfig } from "./load-config";
export { ZOidcMethodSettings, type OidcMethodSettings } from "./identity-settings";
