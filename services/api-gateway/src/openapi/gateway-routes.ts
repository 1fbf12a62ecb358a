import type { AppConfig } from "@esign/config";
import type { RouteDoc } from "./route-doc";
import { queueDashboardRoutes } from "../admin/dashboard-contracts";
import { authRoutes } from "../auth/auth-contracts";
import { caseFileRoutes } from "../casefiles/casefile-contracts";
import { developmentRoutes } from "../identity/simulator-contracts";
import { signingRoutes } from "../signing/signing-contracts";
import { systemRoutes } from "../http/system-contracts";
import { verificationRoutes } from "../verification/verification-contracts";
import { webhookRoutes } from "../webhooks/webhook-contracts";

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
