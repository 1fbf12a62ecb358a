import type { RequestHandler, Router } from "express";
import type { RouteDoc } from "../openapi/route-doc";

/** The names of a contract path's parameters: `"/x/{id}/y/{yId}"` gives `{ id: string; yId: string }`. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & PathParams<Rest>
  : Record<never, string>;

/** The contract's OpenAPI path in express's syntax: `{id}` becomes `:id`. */
export const expressPath = (path: string): string => path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ":$1");

/**
 * Serves a declared route: the method and the path come from its contract (the same declaration the
 * OpenAPI document and the answer check use), so a handler cannot answer at a path its contract does
 * not name. `req.params` is typed from the contract's path.
 */
export function serve<P extends string>(router: Router, route: RouteDoc<P>, ...handlers: Array<RequestHandler<PathParams<P>>>): void {
  // express types a handler's params from a literal path it is given; ours come from the contract.
  router[route.method](expressPath(route.path), ...(handlers as unknown as RequestHandler[]));
}
