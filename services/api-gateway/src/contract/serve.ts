import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import type { z } from "zod";
import { AppError, type FieldIssue } from "@esign/errors";
import { fieldIssues } from "./field-issues";
import { needsCredentials, type RouteContract } from "./route";

/*
 * `serve(router, contract, ...middleware, handler)`: the one way a handler is registered. The method
 * and the path come from the contract; the request's path parameters, query, headers and JSON body
 * are validated with the contract's schemas before the handler runs, and the handler receives them
 * parsed and typed. A request that fails is answered 400 listing every failing field (a path
 * parameter that does not parse names no resource: 404 where the route declares one). The JSON the
 * handler answers is typed from the contract's answer schemas, and checked against them at run time
 * outside production (answer-check.ts finds the contract where serve leaves it).
 */

/** The names of a contract path's parameters: `"/x/{id}/y/{yId}"` gives `"id" | "yId"`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNames<Rest> : never;

/** The contract's OpenAPI path in express's syntax: `{id}` becomes `:id`. */
export const expressPath = (path: string): string => path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ":$1");

type Parsed<S> = S extends z.ZodType ? z.output<S> : Record<never, never>;
type RequestOf<C extends RouteContract> = NonNullable<C["request"]>;

/** What a handler receives: the request's parts, parsed by the contract's schemas. */
export interface RequestInput<C extends RouteContract> {
  params: RequestOf<C> extends { params: infer S } ? Parsed<S> : Record<never, never>;
  query: RequestOf<C> extends { query: infer S } ? Parsed<S> : Record<never, never>;
  headers: RequestOf<C> extends { headers: infer S } ? Parsed<S> : Record<never, never>;
  body: RequestOf<C> extends { body: { schema: infer S } } ? Parsed<S> : undefined;
}

type JsonOf<R> = R extends { content: { "application/json": infer S } } ? (S extends z.ZodType ? z.input<S> : never) : never;
/** Every JSON body the contract declares, under any status. */
export type JsonAnswer<C extends RouteContract> = { [K in keyof C["responses"]]: JsonOf<C["responses"][K]> }[keyof C["responses"]];
/**
 * The handler's response: `res.json` takes what the contract declares (and `res.send` text or bytes,
 * for the pages and files a route may answer besides).
 */
export type ContractResponse<C extends RouteContract> = Response<JsonAnswer<C> | string | Buffer>;

/** A route's handler: the parsed input, then express's request, typed response and `next` (for stream errors). */
export type ContractHandler<C extends RouteContract> = (input: RequestInput<C>, req: Request, res: ContractResponse<C>, next: NextFunction) => unknown;

const CONTRACT = Symbol("route contract");
const AUTHENTICATOR = Symbol("authenticator");

/** Marks middleware that establishes who is calling; a route that declares credentials must be served with one. */
export function authenticator<H extends RequestHandler>(handler: H): H {
  return Object.assign(handler, { [AUTHENTICATOR]: true });
}

const isAuthenticator = (handler: RequestHandler): boolean => (handler as unknown as Record<symbol, unknown>)[AUTHENTICATOR] === true;

/** The contract of the route serving this response (set by serve before any of its middleware). */
export function contractOf(res: Response): RouteContract | undefined {
  return (res.locals as Record<symbol, RouteContract | undefined>)[CONTRACT];
}

/** Header values by the names the contract declares (node keeps them lower-cased). */
function headersOf(req: Request, schema: z.ZodObject): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, req.header(name)]));
}

async function issuesOf<S extends z.ZodType>(
  schema: S,
  value: unknown,
  into: FieldIssue[],
  headerNames: boolean,
  errorMap?: z.core.$ZodErrorMap,
): Promise<z.output<S> | undefined> {
  const parsed = await schema.safeParseAsync(value, errorMap ? { error: errorMap } : undefined);
  if (parsed.success) return parsed.data;
  // A header is named as it is sent ("Idempotency-Key"), not as a path into an object.
  into.push(...fieldIssues(parsed.error).map((issue, i) => (headerNames ? { ...issue, path: String(parsed.error.issues[i]?.path[0] ?? "headers") } : issue)));
  return undefined;
}

const INVALID_PART = { query: "query parameters", headers: "headers", body: "request body" } as const;

/** The request's parts parsed by the contract, or the AppError that answers the request. */
export function requestParser<C extends RouteContract>(contract: C): (req: Request) => Promise<RequestInput<C>> {
  const { params, query, headers, body } = contract.request ?? {};
  const pathNotFound = contract.responses[404]?.description;
  return async (req) => {
    const input: Record<string, unknown> = { params: {}, query: {}, headers: {}, body: undefined };
    if (params) {
      const parsed = params.safeParse(req.params);
      if (!parsed.success) {
        if (pathNotFound) throw new AppError("not_found", pathNotFound);
        throw new AppError("validation_failed", "Invalid path parameters", fieldIssues(parsed.error));
      }
      input.params = parsed.data;
    }
    const issues: FieldIssue[] = [];
    const failed: string[] = [];
    const part = async (name: keyof typeof INVALID_PART, schema: z.ZodType | undefined, value: () => unknown, errorMap?: z.core.$ZodErrorMap) => {
      if (!schema) return;
      const before = issues.length;
      input[name] = await issuesOf(schema, value(), issues, name === "headers", errorMap);
      if (issues.length > before) failed.push(INVALID_PART[name]);
    };
    await part("query", query, () => req.query);
    await part("headers", headers, () => headersOf(req, headers as z.ZodObject));
    await part("body", body?.schema, () => req.body ?? (body?.required === false ? {} : undefined), body?.errorMap);
    if (issues.length > 0) throw new AppError("validation_failed", `Invalid ${failed.join(" and ")}: every failing field is listed`, issues);
    return input as unknown as RequestInput<C>;
  };
}

/**
 * Serves a declared route: `middleware` first (authentication, limits, an upload reader), then the
 * request is validated by the contract and the handler runs with the parsed input. A route whose
 * contract requires credentials must be given an `authenticator(...)` among its middleware: a
 * declaration that says "authenticated" can never be served open by mistake.
 */
export function serve<const C extends RouteContract>(router: Router, contract: C, ...chain: [...RequestHandler[], ContractHandler<C>]): void {
  const handler = chain[chain.length - 1] as ContractHandler<C>;
  const middleware = chain.slice(0, -1) as RequestHandler[];
  const where = `${contract.method.toUpperCase()} ${contract.path}`;
  if (needsCredentials(contract.security) && !middleware.some(isAuthenticator)) {
    throw new Error(`${where} declares credentials but is served without an authenticator`);
  }
  const parse = requestParser(contract);
  const tag: RequestHandler = (_req, res, next) => {
    (res.locals as Record<symbol, RouteContract>)[CONTRACT] = contract;
    next();
  };
  const run: RequestHandler = async (req, res, next) => {
    const input = await parse(req);
    await handler(input, req, res as ContractResponse<C>, next);
  };
  for (const method of [contract.method, ...(contract.alsoMethods ?? [])]) router[method](expressPath(contract.path), tag, ...middleware, run);
}
