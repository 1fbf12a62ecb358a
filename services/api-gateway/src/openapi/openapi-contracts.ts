import { z } from "zod";
import { component } from "../contract/components";
import { json, PUBLIC, route, TAGS } from "../contract/route";
import { OPENAPI_DOCUMENT_PATH } from "../docs/docs-assets";

export const ZOpenApiDocument = component("OpenApiDocument", z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }));

export const openApiRoutes = () => ({
  openApiDocument: route({
    tags: [TAGS.docs],
    security: PUBLIC,
    method: "get",
    path: OPENAPI_DOCUMENT_PATH,
    operationId: "openApiDocument",
    summary: "This document (OpenAPI 3.0), generated from the gateway's zod schemas",
    responses: { 200: { description: "The document", content: json(ZOpenApiDocument) } },
  }),
});
