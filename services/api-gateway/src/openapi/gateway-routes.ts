import type { AppConfig } from "@esign/config";
import type { RouteContract } from "../contract/route";
import { queueDashboardRoutes } from "../admin/dashboard-contracts";
import { archiveRoutes } from "../archive/archive-contracts";
import { authRoutes } from "../auth/auth-contracts";
import { caseFileRoutes, PENNEO_API_VERSIONS, penneoApiRoutes } from "../casefiles/casefile-contracts";
import { docsRoutes } from "../docs/docs-contracts";
import { webappRoutes } from "../webapp/webapp-contracts";
import { folderRoutes } from "../folders/folder-contracts";
import { folderShareRoutes } from "../folders/folder-share-contracts";
import { userRoutes } from "../users/user-contracts";
import { ssoRoutes } from "../users/sso-contracts";
import { companyRoutes } from "../company/company-contracts";
import { contactRoutes } from "../contacts/contact-contracts";
import { credentialRoutes } from "../credentials/credential-contracts";
import { developmentRoutes } from "../identity/simulator-contracts";
import { jobRoutes } from "../jobs/job-contracts";
import { signingRoutes } from "../signing/signing-contracts";
import { signerRoutes } from "../signers/signer-contracts";
import { recipientRoutes } from "../recipients/recipient-contracts";
import { logRoutes } from "../event-log/log-contracts";
import { systemRoutes } from "../system/system-contracts";
import { verificationRoutes } from "../verification/verification-contracts";
import { webhookRoutes } from "../webhooks/webhook-contracts";
import { openApiRoutes } from "./openapi-contracts";

export interface GatewayRouteOptions {
  /** Whether the identity-provider simulator is mounted (app.ts decides; never in production). */
  developmentRoutes: boolean;
}

/**
 * Every operation of the gateway, from the contract files the handlers are served from (`serve`).
 * A route added to app.ts without an entry here fails test/e2e/openapi.test.ts.
 */
export function gatewayRoutes(config: AppConfig, options: GatewayRouteOptions): RouteContract[] {
  const all = (routes: Record<string, RouteContract>): RouteContract[] => Object.values(routes);
  return [
    ...all(authRoutes()),
    ...all(caseFileRoutes(config)),
    ...all(jobRoutes(config)),
    ...PENNEO_API_VERSIONS.flatMap((v) => all(penneoApiRoutes(v))),
    ...PENNEO_API_VERSIONS.flatMap((v) => [...all(signerRoutes(v)), ...all(recipientRoutes(v)), ...all(logRoutes(v))]),
    ...PENNEO_API_VERSIONS.flatMap((v) => all(folderRoutes(v))),
    ...all(folderShareRoutes()),
    ...all(userRoutes()),
    ...all(ssoRoutes()),
    ...all(companyRoutes()),
    ...PENNEO_API_VERSIONS.flatMap((v) => all(contactRoutes(v))),
    ...PENNEO_API_VERSIONS.flatMap((v) => all(archiveRoutes(v))),
    ...all(credentialRoutes()),
    ...all(webhookRoutes(config)),
    ...all(signingRoutes()),
    ...all(verificationRoutes(config)),
    ...(options.developmentRoutes ? all(developmentRoutes()) : []),
    ...all(systemRoutes(config)),
    ...all(openApiRoutes()),
    ...all(docsRoutes()),
    ...all(webappRoutes()),
    // Mounted by admin/queue-dashboard.ts under the same setting.
    ...(config.QUEUE_DASHBOARD ? all(queueDashboardRoutes()) : []),
  ];
}
