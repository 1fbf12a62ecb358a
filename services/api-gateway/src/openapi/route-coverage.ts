import type { AppSurface } from "./list-routes";

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

export interface DocumentedPaths {
  paths: Record<string, Record<string, unknown>>;
}

export interface CoverageReport {
  /** Routes the app answers that the document lacks. */
  undocumented: string[];
  /** Operations the document lists that no route (and no opaque mount) answers. */
  unrouted: string[];
  /** Opaque mounts without any documented operation under them. */
  undocumentedMounts: string[];
}

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * Compares the document with what the app really answers. Routes must match one to one. An opaque
 * mount serves paths no route lists: a whole app (bull-board at /admin/queues), or middleware at a
 * path no route lives under (a handler or static files). It counts as documented when some
 * operation lies under it, and operations under it count as routed. Middleware beside routes
 * (headers for /sign/...) is not opaque, so /sign/... operations must still match real routes.
 */
export function compareRoutes(document: DocumentedPaths, surface: AppSurface): CoverageReport {
  const documented = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      documented.add(key(method, path));
      // Verbs OpenAPI has no place for (LINK, UNLINK), served by the same operation.
      const also = (operation as { "x-also-methods"?: unknown })["x-also-methods"];
      if (Array.isArray(also)) for (const extra of also) documented.add(key(String(extra), path));
    }
  }
  const registered = new Set(surface.routes.map((r) => key(r.method, r.path)));
  const opaque = [...new Set(surface.mounts.filter((m) => m.kind === "app" || !surface.routes.some((r) => under(r.path, m.path))).map((m) => m.path))];
  const documentedPaths = [...documented].map((k) => k.slice(k.indexOf(" ") + 1));
  return {
    undocumented: [...registered].filter((k) => !documented.has(k)).sort(),
    unrouted: [...documented].filter((k) => !registered.has(k) && !opaque.some((m) => under(k.slice(k.indexOf(" ") + 1), m))).sort(),
    undocumentedMounts: opaque.filter((m) => !documentedPaths.some((p) => under(p, m))).sort(),
  };
}
