import type { z } from "zod";
import type { AppConfig } from "@esign/config";
import gatewayPackage from "../../package.json";
import { componentRef, componentSchemas, inlineSchema, type JsonSchema } from "./json-schema";
import { REQUEST_COMPONENTS } from "./request-schemas";
import { RESPONSE_COMPONENTS } from "./response-schemas";
import { securitySchemes } from "./security-schemes";
import { TAGS, type MultipartBody, type ParamsSchema, type RequestDoc, type ResponseDoc, type RouteDoc } from "./route-doc";

export interface OpenApiDocument {
  openapi: "3.0.3";
  info: JsonSchema;
  servers: { url: string; description: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

function namesOf(table: Record<string, z.ZodType>): Map<z.ZodType, string> {
  return new Map(Object.entries(table).map(([name, schema]) => [schema, name]));
}

function withDescription(schema: JsonSchema, description: string): JsonSchema {
  return schema.$ref === undefined ? { ...schema, description } : { allOf: [schema], description };
}

function parameters(schema: ParamsSchema | undefined, location: "path" | "query" | "header"): JsonSchema[] {
  if (!schema) return [];
  const json = inlineSchema(schema, "input");
  const required = new Set(Array.isArray(json.required) ? json.required : []);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, { description, ...propertySchema }]) => ({
    name,
    in: location,
    required: location === "path" || required.has(name),
    ...(typeof description === "string" ? { description } : {}),
    schema: propertySchema,
  }));
}

class DocumentBuilder {
  readonly schemas: Record<string, JsonSchema>;
  private readonly requestNames = namesOf(REQUEST_COMPONENTS);
  private readonly responseNames = namesOf(RESPONSE_COMPONENTS);

  constructor() {
    const requests = componentSchemas(new Map(Object.entries(REQUEST_COMPONENTS)), "input");
    const responses = componentSchemas(new Map(Object.entries(RESPONSE_COMPONENTS)), "output");
    const clash = Object.keys(requests).find((name) => name in responses);
    if (clash) throw new Error(`OpenAPI: "${clash}" names both a request and a response schema`);
    this.schemas = { ...requests, ...responses };
  }

  private named(names: Map<z.ZodType, string>, schema: z.ZodType, what: string): JsonSchema {
    const name = names.get(schema);
    if (!name)
      throw new Error(`OpenAPI: ${what} uses a schema without a component name; add it to ${names === this.requestNames ? "REQUEST" : "RESPONSE"}_COMPONENTS`);
    return componentRef(name);
  }

  private multipart(body: MultipartBody, what: string): JsonSchema {
    const ref = this.named(this.requestNames, body.schema, what);
    const name = String(ref.$ref).split("/").pop() ?? "";
    const component = this.schemas[name];
    const properties = (component?.properties ?? {}) as Record<string, JsonSchema>;
    const encoding: Record<string, JsonSchema> = {};
    for (const [part, { contentType, description }] of Object.entries(body.parts)) {
      const property = properties[part];
      if (!property) throw new Error(`OpenAPI: ${what} describes a part "${part}" its schema does not have`);
      properties[part] = withDescription(property, description);
      encoding[part] = { contentType };
    }
    return { description: body.description, required: true, content: { "multipart/form-data": { schema: ref, encoding } } };
  }

  private requestBody(request: RequestDoc | undefined, what: string): JsonSchema | undefined {
    if (request?.multipart) return this.multipart(request.multipart, what);
    const body = request?.body;
    if (!body) return undefined;
    const schema = this.named(this.requestNames, body.schema, what);
    return {
      required: body.required ?? true,
      ...(body.description ? { description: body.description } : {}),
      content: Object.fromEntries(body.mediaTypes.map((type) => [type, { schema }])),
    };
  }

  private response(doc: ResponseDoc, what: string): JsonSchema {
    const out: JsonSchema = { description: doc.description };
    if (doc.content) {
      out.content = Object.fromEntries(
        Object.entries(doc.content).map(([type, schema]) => {
          if (!schema) return [type, {}];
          return [type, { schema: type === "application/json" ? this.named(this.responseNames, schema, what) : inlineSchema(schema, "output") }];
        }),
      );
    }
    if (doc.headers) {
      out.headers = Object.fromEntries(
        Object.entries(doc.headers).map(([name, h]) => [name, { description: h.description, schema: inlineSchema(h.schema, "output") }]),
      );
    }
    return out;
  }

  operation(route: RouteDoc): JsonSchema {
    const what = `${route.method.toUpperCase()} ${route.path}`;
    const declared = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    const given = Object.keys(route.request?.params?.shape ?? {}).sort();
    if (declared.join() !== given.join()) throw new Error(`OpenAPI: ${what} has path parameters [${declared}] but declares [${given}]`);
    const params = [
      ...parameters(route.request?.params, "path"),
      ...parameters(route.request?.query, "query"),
      ...parameters(route.request?.headers, "header"),
    ];
    const body = this.requestBody(route.request, what);
    return {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [...route.tags],
      security: route.security.map((alternative) => ({ ...alternative })),
      ...(params.length > 0 ? { parameters: params } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: Object.fromEntries(Object.entries(route.responses).map(([status, doc]) => [status, this.response(doc, what)])),
      ...(route.developmentOnly ? { "x-development-only": true } : {}),
    };
  }
}

/** The whole document, from the route declarations and the zod schemas they name. Pure: call once and cache. */
export function buildOpenApiDocument(config: AppConfig, routes: readonly RouteDoc[]): OpenApiDocument {
  const builder = new DocumentBuilder();
  const paths: OpenApiDocument["paths"] = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`OpenAPI: ${route.method.toUpperCase()} ${route.path} is declared twice`);
    if (operationIds.has(route.operationId)) throw new Error(`OpenAPI: operationId ${route.operationId} is used twice`);
    operationIds.add(route.operationId);
    item[route.method] = builder.operation(route);
  }
  const usedTags = new Set(routes.flatMap((r) => r.tags));
  return {
    openapi: "3.0.3",
    info: {
      title: "E-Sign API",
      version: gatewayPackage.version,
      description:
        "Case files, signers, signing links and signed webhooks. Every 4xx/5xx answer has the `ErrorBody` shape; " +
        "validation failures list every failing field. This document is generated at startup from the same zod " +
        "schemas that validate the requests.",
    },
    servers: [{ url: config.PUBLIC_BASE_URL, description: "This gateway" }],
    tags: Object.values(TAGS)
      .filter((name) => usedTags.has(name))
      .map((name) => ({ name })),
    paths,
    components: { schemas: builder.schemas, securitySchemes: securitySchemes(config) },
  };
}
