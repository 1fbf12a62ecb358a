import { Router } from "express";
import type { AppConfig } from "@esign/config";
import { buildOpenApiDocument } from "./build-document";
import { gatewayRoutes, type GatewayRouteOptions } from "./gateway-routes";
import { serve } from "../contract/serve";
import { openApiRoutes } from "./openapi-contracts";

/** GET /openapi.json: built once when the app is built (a broken declaration stops the start), then served as is. */
export function openApiRouter(config: AppConfig, options: GatewayRouteOptions): Router {
  const body = JSON.stringify(buildOpenApiDocument(config, gatewayRoutes(config, options)));
  const router = Router();
  serve(router, openApiRoutes().openApiDocument, (_input, _req, res) => {
    res.setHeader("Cache-Control", "no-cache");
    res.type("application/json").send(body);
  });
  return router;
}
