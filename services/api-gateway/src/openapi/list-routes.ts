import type { Express } from "express";
import { z } from "zod";

export interface RegisteredRoute {
  /** Lower case, as in an OpenAPI path item. */
  method: string;
  /** OpenAPI style: /x/{id}. */
  path: string;
}

/**
 * Something mounted at a path with use(path, ...): a whole express app (bull-board), which answers
 * paths no route lists, or a middleware (headers, static files, a handler) that may or may not answer.
 */
export interface Mount {
  path: string;
  kind: "app" | "middleware";
}

/** What an express app answers: its routes, and what is mounted at paths. */
export interface AppSurface {
  routes: RegisteredRoute[];
  mounts: Mount[];
}

// Express 5 (router 2.x) internals, checked rather than trusted: a layer is a route, a router, an app or middleware.
const ZPath = z.union([z.string(), z.array(z.string())]);
const ZLayer = z.object({
  route: z.object({ path: ZPath, methods: z.record(z.string(), z.boolean()) }).optional(),
  rawPath: ZPath.optional(),
  slash: z.boolean().optional(),
  handle: z.unknown(),
});
const ZStack = z.array(z.unknown());

/** A property of an object or function (routers and apps are functions with properties). */
function prop(value: unknown, name: string): unknown {
  return typeof value === "function" || (typeof value === "object" && value !== null) ? Reflect.get(value, name) : undefined;
}

function stackOf(value: unknown): unknown[] | undefined {
  const parsed = ZStack.safeParse(prop(value, "stack"));
  return parsed.success ? parsed.data : undefined;
}

const asList = (p: string | string[]) => (Array.isArray(p) ? p : [p]);
const join = (prefix: string, path: string) => (prefix + path).replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1") || "/";

/** `/x/:id` -> `/x/{id}`; wildcards and optional groups are left as they are, so they match no document path. */
export const toOpenApiPath = (expressPath: string) => expressPath.replace(/:([A-Za-z0-9_$]+)/g, "{$1}");

function walk(stack: unknown[], prefix: string, surface: AppSurface): void {
  for (const raw of stack) {
    const layer = ZLayer.safeParse(raw);
    if (!layer.success) throw new Error(`listRoutes: unexpected express layer shape (${layer.error.message})`);
    const { route, rawPath, slash, handle } = layer.data;
    if (route) {
      for (const path of asList(route.path)) {
        for (const [method, on] of Object.entries(route.methods)) {
          if (on) surface.routes.push({ method: method === "_all" ? "all" : method, path: toOpenApiPath(join(prefix, path)) });
        }
      }
      continue;
    }
    const paths = slash === true || rawPath === undefined ? ["/"] : asList(rawPath);
    const routerStack = stackOf(handle);
    for (const path of paths) {
      const at = join(prefix, path);
      // A Router's routes are the app's routes, wherever it is mounted.
      if (routerStack) walk(routerStack, at === "/" ? "" : at, surface);
      // Middleware at the root (body parsers, error handlers) answers no path of its own.
      else if (at !== "/") surface.mounts.push({ path: toOpenApiPath(at), kind: stackOf(prop(handle, "router")) ? "app" : "middleware" });
    }
  }
}

/** Every route and mount of an express 5 app, read from its router stack. */
export function listRoutes(app: Express): AppSurface {
  const stack = stackOf(app.router);
  if (!stack) throw new Error("listRoutes: the app has no router stack (express 5 expected)");
  const surface: AppSurface = { routes: [], mounts: [] };
  walk(stack, "", surface);
  return surface;
}
