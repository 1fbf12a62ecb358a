import type { AppConfig } from "@esign/config";
import type { RouteDoc } from "../route-doc";
import { queueDashboardRoutes } from "./admin-routes";
import { authRoutes } from "./auth-routes";
import { caseFileRoutes } from "./casefile-routes";
import { developmentRoutes } from "./development-routes";
import { signingRoutes } from "./signing-routes";
import { systemRoutes } from "./system-routes";
import { verificationRoutes } from "./verification-routes";
import { webhookRoutes } from "./webhook-routes";

export interface GatewayRouteOptions {
  /** Whether the identity-provider simulator is mounted (app.ts decides; never in production). */
  developmentRoutes: boolean;
}

/** Every operation of the gateway. A route added to app.ts without an entry here fails test/e2e/openapi.test.ts. */
export function gatewayRoutes(config: AppConfig, options: GatewayRouteOptions): RouteDoc[] {
  return [
    ...authRoutes(),
    ...caseFileRoutes(config),
    ...webhookRoutes(),
    ...signingRoutes(),
    ...verificationRoutes(config),
    ...(options.developmentRoutes ? developmentRoutes() : []),
    ...systemRoutes(config),
    // Mounted by admin/queue-dashboard.ts under the same setting.
    ...(config.QUEUE_DASHBOARD ? queueDashboardRoutes() : []),
  ];
}
