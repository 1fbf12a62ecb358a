import { ConfigError, loadConfig } from "../src";

/** The problems loadConfig names for an environment (none when it loads). */
export function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

/** What production needs besides the settings under test. */
export const PRODUCTION_BASICS = {
  NODE_ENV: "production",
  JWT_SECRET: "a-production-jwt-secret-0123456789",
  ENCRYPTION_KEY: "9325e83fc7c7c11817299d67f09d4cb773420fcde4d51d61ca3b7d1725bd77d3",
  METRICS_TOKEN: "m".repeat(16),
};
