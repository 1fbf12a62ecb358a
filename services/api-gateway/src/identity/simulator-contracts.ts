import { ZAuthorize, ZDecision } from "./simulator-schemas";
import { IDP_SIMULATOR_PATH } from "./idp-simulator";
import { PUBLIC, route, TAGS } from "../contract/route";

const NOTE =
  "Development only: mounted when IDENTITY_PROVIDER=simulator outside production, never in production. " + "It approves whoever clicks; it is not a real eID.";

/** The identity-provider simulator's pages (x-development-only in the document). */
export function developmentRoutes() {
  const base = { tags: [TAGS.simulator], security: PUBLIC, developmentOnly: true } as const;
  return {
    idpSimulatorConsent: route({
      ...base,
      method: "get",
      path: IDP_SIMULATOR_PATH,
      operationId: "idpSimulatorConsent",
      summary: "Simulated eID consent page",
      description: NOTE,
      request: { query: ZAuthorize },
      responses: {
        200: { description: "The consent page", content: { "text/html": null } },
        400: { description: "Malformed login request or a redirect the simulator does not serve", content: { "text/html": null } },
      },
    }),
    idpSimulatorDecision: route({
      ...base,
      method: "post",
      path: IDP_SIMULATOR_PATH,
      operationId: "idpSimulatorDecision",
      summary: "Approve or cancel the simulated login",
      description: NOTE,
      request: { body: { schema: ZDecision, mediaTypes: ["application/x-www-form-urlencoded"] } },
      responses: {
        303: { description: "Back to the gateway's callback with code (approve) or error=access_denied (cancel)" },
        400: { description: "Malformed decision or a redirect the simulator does not serve", content: { "text/html": null } },
      },
    }),
  };
}
