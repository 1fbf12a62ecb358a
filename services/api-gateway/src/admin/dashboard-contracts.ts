import { z } from "zod";
import { component } from "../contract/components";
import { errors, PUBLIC, route, type Security, TAGS } from "../contract/route";

/** Where bull-board is mounted (queue-dashboard.ts). */
export const DASHBOARD_PATH = "/admin/queues";

const ADMIN: Security = [{ XAuthToken: [] }, { BearerAuth: [] }, { QueueDashboardSession: [] }];
const html = { "text/html": null };

// An absent or empty token is answered with the sign-in page again (401), like a wrong one.
const ZQueueDashboardLogin = component(
  "QueueDashboardLogin",
  z.object({ token: z.string().trim().default("").describe("An access token of a platform operator (POST /oauth/token)") }),
);

/** bull-board and its login, mounted when QUEUE_DASHBOARD is on (default: development only). */
export function queueDashboardRoutes() {
  const base = { tags: [TAGS.dashboard] } as const;
  return {
    queueDashboardLoginPage: route({
      ...base,
      method: "get",
      path: `${DASHBOARD_PATH}/login`,
      operationId: "queueDashboardLoginPage",
      summary: "Sign-in page: paste a platform operator's access token",
      security: PUBLIC,
      responses: { 200: { description: "The page", content: html } },
    }),
    queueDashboardLogin: route({
      ...base,
      method: "post",
      path: `${DASHBOARD_PATH}/login`,
      operationId: "queueDashboardLogin",
      summary: "Exchange a platform operator's access token for a dashboard session cookie",
      security: PUBLIC,
      request: { body: { schema: ZQueueDashboardLogin, mediaTypes: ["application/x-www-form-urlencoded"] } },
      responses: {
        303: {
          description: "Signed in: to the dashboard, with the session cookie",
          headers: { "Set-Cookie": { description: "The session cookie (HttpOnly, SameSite=Strict)", schema: z.string() } },
        },
        401: { description: "Invalid or expired token: the page again", content: html },
        403: { description: "Not a platform operator: the page again", content: html },
      },
    }),
    queueDashboardLogout: route({
      ...base,
      method: "post",
      path: `${DASHBOARD_PATH}/logout`,
      operationId: "queueDashboardLogout",
      summary: "End the dashboard session",
      security: PUBLIC,
      responses: { 303: { description: "Signed out: to the sign-in page" } },
    }),
    queueDashboard: route({
      ...base,
      method: "get",
      path: DASHBOARD_PATH,
      operationId: "queueDashboard",
      summary: "bull-board over the platform's queues (its own UI and JSON API live below this path)",
      description: "Read-only unless QUEUE_DASHBOARD_READ_ONLY is false. Browsers without a credential get the sign-in page.",
      security: ADMIN,
      responses: {
        200: { description: "The dashboard", content: html },
        ...errors({ 401: "No valid credential", 403: "Not a platform operator" }),
      },
    }),
  };
}
