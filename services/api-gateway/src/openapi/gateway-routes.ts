import type { AppConfig } from "@esign/config";
import type { RouteDoc } from "./route-doc";
import { queueDashboardRoutes } from "../admin/dashboard-contracts";
import { authRoutes } from "../auth/auth-contracts";
import { caseFileRoutes, PENNEO_API_VERSIONS, penneoApiRoutes } from "../casefiles/casefile-contracts";
import { developmentRoutes } from "../identity/simulator-contracts";
import { signingRoutes } from "../signing/signing-contracts";
import { docsRoutes, systemRoutes } from "../http/system-contracts";
import { verificationRoutes } from "../verification/verification-contracts";
import { webhookRoutes } from "../webhooks/webhook-contracts";

export interface GatewayRouteOptions {
  /** Whether the identity-provider simulator is mounted (app.ts decides; never in production). */
  developmentRoutes: boolean;
}

/**
 * Every operation of the gateway, from the contract files the handlers are served from (`serve`).
 * A route added to app.ts without an entry here fails test/e2e/openapi.test.ts.
 */
export function gatewayRoutes(config: AppConfig, options: GatewayRouteOptions): RouteDoc[] {
  const all = (routes: Record<string, RouteDoc>): RouteDoc[] => Object.values(routes);
  return [
    ...all(authRoutes()),
    ...all(caseFileRoutes(config)),
    ...PENNEO_API_VERSIONS.flatMap((v) => all(penneoApiRoutes(v))),
    ...all(webhookRoutes()),
    ...all(signingRoutes()),
    ...all(verificationRoutes(config)),
    ...(options.developmentRoutes ? all(developmentRoutes()) : []),
    ...all(systemRoutes(config)),
    ...all(docsRoutes()),
    // Mounted by admin/queue-dashboard.ts under the same setting.
    ...(config.QUEUE_DASHBOARD ? all(queueDashboardRoutes()) : []),
  ];
}
