import type { z } from "zod";
import type { AppConfig } from "@esign/config";
import gatewayPackage from "../../package.json";
import { componentName, namedComponents } from "../contract/components";
import { TAGS, type MultipartBody, type ParamsSchema, type RequestContract, type ResponseContract, type RouteContract } from "../contract/route";
import { componentRef, componentSchemas, inlineSchema, type JsonSchema } from "./json-schema";
import { securitySchemes } from "./security-schemes";

export interface OpenApiDocument {
  openapi: "3.0.3";
  info: JsonSchema;
  servers: { url: string; description: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
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

const refName = (schema: JsonSchema): string | undefined => (typeof schema.$ref === "string" ? schema.$ref.split("/").pop() : undefined);

/** Every component name a schema refers to, at any depth. */
function refsOf(schema: unknown, into: Set<string>): void {
  if (Array.isArray(schema)) for (const item of schema) refsOf(item, into);
  else if (typeof schema === "object" && schema !== null) {
    const name = refName(schema as JsonSchema);
    if (name) into.add(name);
    for (const value of Object.values(schema)) refsOf(value, into);
  }
}

/** The names `roots` lead to, through the components' own references. */
function reachable(roots: Iterable<string>, table: Record<string, JsonSchema>): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    const found = new Set<string>();
    refsOf(table[name], found);
    queue.push(...found);
  }
  return seen;
}

/**
 * The schemas of the document: each named schema a request body leads to, as it is read (zod's
 * input), and each one an answer leads to, as it is written (output). A name both lead to must
 * read the same both ways.
 */
function documentComponents(routes: readonly RouteContract[]): Record<string, JsonSchema> {
  const named = namedComponents();
  const requestRoots = new Set<string>();
  const responseRoots = new Set<string>();
  for (const route of routes) {
    const body = route.request?.multipart?.schema ?? route.request?.body?.schema;
    const name = body && componentName(body);
    if (name) requestRoots.add(name);
    for (const doc of Object.values(route.responses)) {
      const json = doc.content?.["application/json"];
      const answer = json && componentName(json);
      if (answer) responseRoots.add(answer);
    }
  }
  const read = reachable(requestRoots, componentSchemas(named, "input", true));
  const written = reachable(responseRoots, componentSchemas(named, "output", true));
  const only = (names: Set<string>) => new Map([...named].filter(([name]) => names.has(name)));
  const inputs = componentSchemas(only(read), "input");
  const outputs = componentSchemas(only(written), "output");
  const schemas: Record<string, JsonSchema> = {};
  for (const name of [...read].sort()) schemas[name] = inputs[name] as JsonSchema;
  for (const name of [...written].sort()) {
    if (read.has(name) && JSON.stringify(inputs[name]) !== JSON.stringify(outputs[name])) {
      throw new Error(`OpenAPI: "${name}" is read by a request and written by an answer, and the two differ; give each its own name`);
    }
    schemas[name] = outputs[name] as JsonSchema;
  }
  return schemas;
}

class DocumentBuilder {
  constructor(readonly schemas: Record<string, JsonSchema>) {}

  private named(schema: z.ZodType, what: string): JsonSchema {
    const name = componentName(schema);
    if (!name) throw new Error(`OpenAPI: ${what} uses a JSON schema without a component name; name it with component()`);
    return componentRef(name);
  }

  private multipart(body: MultipartBody, what: string): JsonSchema {
    const ref = this.named(body.schema, what);
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

  private requestBody(request: RequestContract | undefined, what: string): JsonSchema | undefined {
    if (request?.multipart) return this.multipart(request.multipart, what);
    const body = request?.body;
    if (!body) return undefined;
    const schema = this.named(body.schema, what);
    return {
      required: body.required ?? true,
      ...(body.description ? { description: body.description } : {}),
      content: Object.fromEntries(body.mediaTypes.map((type) => [type, { schema }])),
    };
  }

  private response(doc: ResponseContract, what: string): JsonSchema {
    const out: JsonSchema = { description: doc.description };
    if (doc.content) {
      out.content = Object.fromEntries(
        Object.entries(doc.content).map(([type, schema]) => {
          if (!schema) return [type, {}];
          return [type, { schema: type === "application/json" ? this.named(schema, what) : inlineSchema(schema, "output") }];
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

  operation(route: RouteContract): JsonSchema {
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
      ...(route.alsoMethods?.length ? { "x-also-methods": route.alsoMethods.map((m) => m.toUpperCase()) } : {}),
    };
  }
}

/** The whole document, from the route declarations and the zod schemas they name. Pure: call once and cache. */
export function buildOpenApiDocument(config: AppConfig, routes: readonly RouteContract[]): OpenApiDocument {
  const builder = new DocumentBuilder(documentComponents(routes));
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
