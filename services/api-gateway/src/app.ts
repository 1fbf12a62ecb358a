import express, { type Express } from "express";
import type { GatewayContext } from "./context";
import { requestContext } from "./http/request-context";
import { errorHandler, notFound } from "./http/error-handler";
import { textGuard } from "./http/text-guard";
import { tokenRouter } from "./auth/token-route";
import { TOKEN_PATH } from "./auth/auth-contracts";
import { oauthErrorHandler } from "./auth/oauth-error";
import { createCaseFileRouter } from "./casefiles/create-route";
import { caseFileReadRouter } from "./casefiles/read-route";
import { penneoApiRouter } from "./casefiles/penneo-routes";
import { folderRouter } from "./folders/folder-router";
import { userRouter } from "./users/user-router";
import { ssoRouter } from "./users/sso-router";
import { companyRouter } from "./company/company-router";
import { contactRouter } from "./contacts/contact-router";
import { credentialRouter } from "./credentials/credential-router";
import { archiveRouter } from "./archive/archive-router";
import { jobStatusRouter } from "./jobs/job-status-route";
import { healthRouter } from "./system/health-route";
import { webhookSubscriptionRouter } from "./webhooks/subscription-router";
import { signerDeleteRouter } from "./casefiles/signer-delete-route";
import { signerRouter } from "./signers/signer-router";
import { recipientRouter } from "./recipients/recipient-router";
import { logRouter } from "./event-log/log-router";
import { signingRouter } from "./signing/signing-router";
import { createIdentityProvider } from "./identity/create-identity-provider";
import { IdentityProviderSimulator } from "./identity/idp-simulator";
import { identityProviderSimulatorRouter } from "./identity/idp-simulator-route";
import { openApiRouter } from "./openapi/openapi-router";
import { docsRouter } from "./docs/docs-router";
import { webappRouter } from "./webapp/webapp-router";
import { httpMetrics } from "./http/metrics";
import { metricsRouter } from "./system/metrics-route";
import { queueDashboard } from "./admin/queue-dashboard";
import { verificationRouter } from "./verification/verification-router";
import { answerCheck } from "./contract/answer-check";

/** TRUST_PROXY as Express takes it: a hop count, true/false, or addresses and names (`loopback`). */
function trustProxy(setting: string | undefined): boolean | number | string {
  if (setting === undefined || setting === "" || setting === "false") return false;
  if (setting === "true") return true;
  return /^\d+$/.test(setting) ? Number(setting) : setting;
}

/** The gateway's HTTP surface; every route is listed here so the whole API reads in one place. */
export function buildApp(ctx: GatewayContext): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxy(ctx.config.TRUST_PROXY));
  app.use(requestContext(ctx.logger));
  const identityProvider = createIdentityProvider(ctx.config);
  const routeOptions = { developmentRoutes: identityProvider instanceof IdentityProviderSimulator };
  // Outside production every JSON answer is checked against the contract of the route that answers it
  // (the one /openapi.json is built from): logged in development, a 500 under NODE_ENV=test.
  if (!ctx.config.production) app.use(answerCheck(ctx.config.NODE_ENV === "test" ? "fail" : "log", ctx.logger));
  app.use(httpMetrics());
  app.use(express.json({ limit: "100kb" }));
  app.use(express.urlencoded({ extended: false, limit: "20kb" }));
  app.use(textGuard);
  app.use(healthRouter(ctx));
  app.use(metricsRouter(ctx.config));
  app.use(queueDashboard(ctx));
  app.use(tokenRouter(ctx));
  // After the body parsers: a token request that is not even JSON answers in the OAuth 2.0 shape too.
  app.use(TOKEN_PATH, oauthErrorHandler);
  app.use(createCaseFileRouter(ctx));
  app.use(jobStatusRouter(ctx));
  app.use(caseFileReadRouter(ctx));
  app.use(penneoApiRouter(ctx));
  app.use(folderRouter(ctx));
  app.use(userRouter(ctx));
  app.use(ssoRouter(ctx));
  app.use(companyRouter(ctx));
  app.use(contactRouter(ctx));
  app.use(credentialRouter(ctx));
  app.use(archiveRouter(ctx));
  app.use(webhookSubscriptionRouter(ctx));
  app.use(signerDeleteRouter(ctx));
  app.use(signerRouter(ctx));
  app.use(recipientRouter(ctx));
  app.use(logRouter(ctx));
  app.use(verificationRouter(ctx));
  app.use(signingRouter(ctx, identityProvider));
  if (identityProvider instanceof IdentityProviderSimulator) app.use(identityProviderSimulatorRouter(identityProvider));
  app.use(openApiRouter(ctx.config, routeOptions));
  app.use(docsRouter());
  app.use(webappRouter());
  app.use(notFound);
  app.use(errorHandler(ctx.logger));
  return app;
}
