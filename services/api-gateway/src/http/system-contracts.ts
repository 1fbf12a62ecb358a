import { z } from "zod";
import type { AppConfig } from "@esign/config";
import { DOCS_ASSETS_PATH, DOCS_PATH, ZDocsAssetParams } from "../docs/docs-assets";
import { ZBinaryFile } from "../openapi/request-schemas";
import { ZHealth, ZOpenApiDocument, ZReadiness } from "../openapi/response-schemas";
import { errors, json, PUBLIC, route, TAGS } from "../openapi/route-doc";

/** Kept here rather than imported from openapi-router.ts, which imports this file. */
export const OPENAPI_DOCUMENT_PATH = "/openapi.json";

/** Health, readiness and metrics. */
export function systemRoutes(config: Pick<AppConfig, "METRICS_TOKEN">) {
  const ops = { tags: [TAGS.operations], security: PUBLIC } as const;
  return {
    health: route({
      ...ops,
      method: "get",
      path: "/healthz",
      operationId: "health",
      summary: "Liveness: the process answers",
      responses: { 200: { description: "Alive", content: json(ZHealth) } },
    }),
    readiness: route({
      ...ops,
      method: "get",
      path: "/readyz",
      operationId: "readiness",
      summary: "Readiness: PostgreSQL and Redis answer",
      responses: {
        200: { description: "Ready", content: json(ZReadiness) },
        503: { description: "A dependency does not answer", content: json(ZReadiness) },
      },
    }),
    metrics: route({
      ...ops,
      method: "get",
      path: "/metrics",
      operationId: "metrics",
      summary: "Prometheus metrics of this process",
      description: "Off with METRICS_ENABLED=false (then 404). With METRICS_TOKEN set, scrapes need `Authorization: Bearer <METRICS_TOKEN>`.",
      security: config.METRICS_TOKEN ? [{ MetricsToken: [] }] : PUBLIC,
      responses: {
        200: { description: "Prometheus text exposition format", content: { "text/plain": z.string() } },
        ...errors({ 401: "Missing or wrong metrics token", 404: "Metrics are disabled" }),
      },
    }),
  };
}

/** The document and the page that shows it. */
export function docsRoutes() {
  const docs = { tags: [TAGS.docs], security: PUBLIC } as const;
  return {
    openApiDocument: route({
      ...docs,
      method: "get",
      path: OPENAPI_DOCUMENT_PATH,
      operationId: "openApiDocument",
      summary: "This document (OpenAPI 3.0), generated from the gateway's zod schemas",
      responses: { 200: { description: "The document", content: json(ZOpenApiDocument) } },
    }),
    docsPage: route({
      ...docs,
      method: "get",
      path: DOCS_PATH,
      operationId: "docsPage",
      summary: "This page: swagger-ui over /openapi.json",
      responses: { 200: { description: "HTML", content: { "text/html": null } } },
    }),
    docsAsset: route({
      ...docs,
      method: "get",
      path: `${DOCS_ASSETS_PATH}/{file}`,
      operationId: "docsAsset",
      summary: "Static files of the docs page (swagger-ui-dist)",
      request: { params: ZDocsAssetParams },
      responses: {
        200: {
          description: "The file",
          content: { "text/css": ZBinaryFile, "text/javascript": ZBinaryFile, "image/png": ZBinaryFile },
        },
        ...errors({ 404: "Not one of the page's files" }),
      },
    }),
  };
}
