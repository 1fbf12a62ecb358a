import { ZBinaryFile } from "../contract/common-schemas";
import { errors, PUBLIC, route, TAGS } from "../contract/route";
import { APP_ASSETS_PATH, APP_PATH, ZAppAssetParams, ZInviteParams } from "./webapp-assets";

/**
 * The customer's web application: one page whose script talks to the public API with the session
 * cookie (packages/sdk's browser client), and its two static files. No data is served here.
 */
export function webappRoutes() {
  const app = { tags: [TAGS.webapp], security: PUBLIC } as const;
  const html = { 200: { description: "The application's page (it draws every screen itself)", content: { "text/html": null } } } as const;
  return {
    appPage: route({
      ...app,
      method: "get",
      // Also answers /app/ (express matches a trailing slash), the address people use.
      path: APP_PATH,
      operationId: "webappPage",
      summary: "The web application: archive, case files, webhooks, company settings",
      responses: html,
    }),
    appInvitePage: route({
      ...app,
      method: "get",
      path: `${APP_PATH}/invite/{token}`,
      operationId: "webappInvitePage",
      summary: "The web application at an invitation: the invited person chooses a name and password",
      request: { params: ZInviteParams },
      responses: { ...html, ...errors({ 404: "Not an invitation token" }) },
    }),
    appAsset: route({
      ...app,
      method: "get",
      path: `${APP_ASSETS_PATH}/{file}`,
      operationId: "webappAsset",
      summary: "The web application's script and style sheet",
      request: { params: ZAppAssetParams },
      responses: {
        200: { description: "The file", content: { "text/css": ZBinaryFile, "text/javascript": ZBinaryFile } },
        ...errors({ 404: "Not one of the application's files" }),
      },
    }),
  };
}
