import { startService, type ServiceName, type ServiceProcess } from "./services";

export interface System {
  gateway: ServiceProcess;
  services: ServiceProcess[];
  start(name: ServiceName, env?: Record<string, string>): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/**
 * The gateway plus the named workers, wired as in production: workers learn the gateway's public
 * URL (signing links point at it) and share the run's database, Redis prefix and storage.
 */
export async function startSystem(
  workers: ServiceName[] = ["casefile-worker"],
  env: Record<string, string> = {},
  gatewayEnv: Record<string, string> = {},
): Promise<System> {
  const gateway = await startService("api-gateway", { ...env, ...gatewayEnv });
  const shared = { ...env, PUBLIC_BASE_URL: gateway.url };
  const services = [gateway, ...(await Promise.all(workers.map((w) => startService(w, shared))))];
  return {
    gateway,
    services,
    async start(name, extra = {}) {
      const svc = await startService(name, { ...shared, ...extra });
      services.push(svc);
      return svc;
    },
    async stop() {
      await Promise.all(services.map((s) => s.stop()));
    },
  };
}
