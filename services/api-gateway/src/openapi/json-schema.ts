import { z } from "zod";

/** A JSON Schema (or OpenAPI Schema Object) as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

export type SchemaIo = "input" | "output";

const COMPONENT_PREFIX = "#/components/schemas/";

/** The keywords an OpenAPI 3.0 Schema Object may hold; anything else is converted or refused. */
const OPENAPI_30_KEYWORDS = new Set([
  "$ref",
  "title",
  "description",
  "type",
  "format",
  "enum",
  "default",
  "nullable",
  "example",
  "deprecated",
  "readOnly",
  "writeOnly",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "properties",
  "additionalProperties",
  "items",
  "allOf",
  "oneOf",
  "anyOf",
  "not",
  "discriminator",
]);

const DROPPED = new Set(["$schema", "$id", "id"]);

const isSchema = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

function child(value: unknown, at: string): JsonSchema {
  if (!isSchema(value)) throw new Error(`OpenAPI: expected a schema at ${at}`);
  return toOpenApi30(value, at);
}

/**
 * zod's "openapi-3.0" target already writes `nullable` and boolean exclusive bounds; this pass fixes
 * what can still slip through (`const`, `examples`, numeric exclusive bounds, type lists, siblings of
 * `$ref`) and refuses any keyword 3.0 cannot express, so a new zod feature fails loudly at startup
 * and in the tests instead of producing a document that validators reject.
 */
export function toOpenApi30(schema: JsonSchema, at = "#"): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (key.startsWith("x-")) {
      out[key] = value;
      continue;
    }
    switch (key) {
      case "const":
        out.enum = [value];
        break;
      case "examples":
        if (Array.isArray(value) && value.length > 0) out.example = value[0];
        break;
      case "exclusiveMinimum":
      case "exclusiveMaximum":
        if (typeof value === "number") {
          out[key === "exclusiveMinimum" ? "minimum" : "maximum"] = value;
          out[key] = true;
        } else out[key] = value;
        break;
      case "type":
        if (Array.isArray(value)) {
          const types = value.filter((t) => t !== "null");
          if (types.length !== 1) throw new Error(`OpenAPI 3.0 cannot express the type list ${JSON.stringify(value)} at ${at}`);
          out.type = types[0];
          if (types.length !== value.length) out.nullable = true;
        } else out.type = value;
        break;
      case "properties":
        if (!isSchema(value)) throw new Error(`OpenAPI: properties must be an object at ${at}`);
        out.properties = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, child(s, `${at}/properties/${name}`)]));
        break;
      case "items":
      case "not":
        out[key] = child(value, `${at}/${key}`);
        break;
      case "additionalProperties":
        out[key] = typeof value === "boolean" ? value : child(value, `${at}/${key}`);
        break;
      case "allOf":
      case "oneOf":
      case "anyOf":
        if (!Array.isArray(value)) throw new Error(`OpenAPI: ${key} must be a list at ${at}`);
        out[key] = value.map((s, i) => child(s, `${at}/${key}/${i}`));
        break;
      default:
        if (!OPENAPI_30_KEYWORDS.has(key)) throw new Error(`OpenAPI 3.0 cannot express the keyword "${key}" at ${at}`);
        out[key] = value;
    }
  }
  // zod writes the safe-integer range on every z.int() and a long regex beside format date-time: noise in a document.
  if (out.type === "integer") {
    if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  }
  if (out.format === "date-time") delete out.pattern;
  // 3.0.3: a nullable enum must list null itself, or null is still refused by the enum.
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  // 3.0 ignores every sibling of $ref: keep them by wrapping the reference.
  if (typeof out.$ref === "string" && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return { allOf: [{ $ref }], ...rest };
  }
  return out;
}

/**
 * Converts named zod schemas together, so that one of them used inside another becomes a `$ref` to
 * `#/components/schemas/<name>` rather than a copy.
 */
export function componentSchemas(named: ReadonlyMap<string, z.ZodType>, io: SchemaIo, lenient = false): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of named) registry.add(schema, { id });
  // Lenient: what JSON Schema cannot say (a transform's output) becomes `{}` instead of an error; used
  // only to find which names a document needs, never for the document itself.
  const { schemas } = z.toJSONSchema(registry, {
    target: "openapi-3.0",
    io,
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
    ...(lenient ? { unrepresentable: "any" as const } : {}),
  });
  const result: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Anything zod could not place under a name (only cycles without an id) would land here.
    if (!named.has(id)) throw new Error(`OpenAPI: unnamed shared schema "${id}"; give it a component name`);
    result[id] = lenient ? (schema as JsonSchema) : toOpenApi30(schema as JsonSchema, `${COMPONENT_PREFIX}${id}`);
  }
  return result;
}

/** One schema on its own (parameters, binary bodies): no references. */
export function inlineSchema(schema: z.ZodType, io: SchemaIo): JsonSchema {
  return toOpenApi30(z.toJSONSchema(schema, { target: "openapi-3.0", io }) as JsonSchema);
}

export const componentRef = (name: string): JsonSchema => ({ $ref: `${COMPONENT_PREFIX}${name}` });
