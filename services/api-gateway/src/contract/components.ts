import type { z } from "zod";

/**
 * Names under which schemas appear in the OpenAPI document's `components/schemas`. A schema is named
 * where it is defined (`component("CaseFile", z.object({...}))`), beside the feature that answers or
 * reads it; the document builder converts the named schemas together, so one used inside another
 * becomes a `$ref`, and every JSON body and answer of a route must be named (../openapi/).
 *
 * A schema built from settings (the subscription endpoint's policy) is named again each time it is
 * built: the name then stands for the newest instance, which has the same shape, and every instance
 * keeps the name.
 */
const names = new WeakMap<z.ZodType, string>();
const newest = new Map<string, z.ZodType>();

export function component<S extends z.ZodType>(name: string, schema: S): S {
  names.set(schema, name);
  newest.set(name, schema);
  return schema;
}

/** The component name of a schema, if it has one. */
export const componentName = (schema: z.ZodType): string | undefined => names.get(schema);

/** Every named schema, by name. */
export const namedComponents = (): ReadonlyMap<string, z.ZodType> => newest;
