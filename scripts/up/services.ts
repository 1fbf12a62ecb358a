import type { AppConfig } from "@esign/config";
import { bundlePath } from "../build-services";

export interface ServiceSpec {
  name: string;
  /** The script node runs: a service's bundle (scripts/build-services.ts), absolute or from the repository root. */
  entry: string;
  /** Settings that differ per service on top of the inherited environment. */
  env: Record<string, string>;
  readyUrl: string;
}

const WORKERS = ["casefile-worker", "notifier", "webhook-dispatcher"] as const;
const FIRST_HEALTH_PORT = 3001;

/** A server bound to every interface is still reached through loopback. */
function reachableHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * The four services on one machine. The workers share one HEALTH_PORT setting, so up treats it as
 * the first of three consecutive ports (defaults 3001-3003, the services' own defaults); a single
 * value for all three would make two of them fail to bind.
 */
export function serviceSpecs(config: AppConfig): ServiceSpec[] {
  const host = reachableHost(config.HOST);
  const firstHealthPort = config.HEALTH_PORT || FIRST_HEALTH_PORT;
  const gateway: ServiceSpec = {
    name: "api-gateway",
    entry: bundlePath("api-gateway"),
    env: {},
    readyUrl: `http://${host}:${config.PORT}/readyz`,
  };
  const workers = WORKERS.map((name, i): ServiceSpec => {
    const port = firstHealthPort + i;
    return { name, entry: bundlePath(name), env: { HEALTH_PORT: String(port) }, readyUrl: `http://${host}:${port}/readyz` };
  });
  return [gateway, ...workers];
}
