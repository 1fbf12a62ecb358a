import type { z } from "zod";
import { ZErrorBody } from "./common-schemas";

/*
 * The bottom floor of the gateway: what a route IS, declared once. A declaration names the method and
 * the path, the request's parameters, query, headers and body as zod schemas, and the answer schema of
 * each status. `serve` (serve.ts) registers the handler from it and validates the request with it,
 * the answer check (answer-check.ts) holds the handler's JSON answers to it, and the OpenAPI document
 * (../openapi/, the top floor) is built from it. Nothing here imports anything of the gateway above.
 */

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";
/**
 * Verbs OpenAPI 3.0 has no place for, which some of Penneo's clients still send (sdk-php links with
 * LINK and UNLINK where sdk-net POSTs and DELETEs): a contract names them as other verbs of itself.
 */
export type ExtraMethod = "link" | "unlink";

export const SECURITY_SCHEMES = [
  "XAuthToken",
  "BearerAuth",
  "OAuth2ClientCredentials",
  "ClientBasicAuth",
  "Wsse",
  "MetricsToken",
  "QueueDashboardSession",
  "SessionCookie",
] as const;
export type SecuritySchemeName = (typeof SECURITY_SCHEMES)[number];
/** Alternatives: any one entry satisfies the operation; an empty entry means "no credentials needed". */
export type Security = ReadonlyArray<Partial<Record<SecuritySchemeName, readonly string[]>>>;

export type BodyMediaType = "application/json" | "application/x-www-form-urlencoded";
export type ResponseMediaType =
  | "application/json"
  | "application/pdf"
  | "text/html"
  | "text/plain"
  | "image/gif"
  | "text/css"
  | "text/javascript"
  | "image/png"
  | "application/octet-stream";

/** Parameters, query and headers: a zod object whose properties become the operation's parameters. */
export type ParamsSchema = z.ZodObject;

export interface JsonBody {
  schema: z.ZodType;
  mediaTypes: readonly BodyMediaType[];
  description?: string;
  /** false: an absent body is validated as `{}` (every field optional or defaulted). */
  required?: boolean;
  /** The words of the body's errors, when they are another endpoint's (the create payload's, for its fields used again). */
  errorMap?: z.core.$ZodErrorMap;
}

/**
 * A multipart body is read by the route's upload middleware (files are streamed to storage, never
 * held in memory) and checked by the route's own rules, which need the file parts and the fields
 * together (the create rules match document names to file names). `serve` does not parse it; the
 * declaration documents it.
 */
export interface MultipartBody {
  schema: z.ZodObject;
  description: string;
  /** Per part: OpenAPI's encoding (the part's content type) and a description shown beside it. */
  parts: Record<string, { contentType: string; description: string }>;
}

export interface RequestContract {
  params?: ParamsSchema;
  query?: ParamsSchema;
  headers?: ParamsSchema;
  body?: JsonBody;
  multipart?: MultipartBody;
}

export interface ResponseContract {
  description: string;
  /** JSON content must be a named component (components.ts); other media types are inlined. */
  content?: Partial<Record<ResponseMediaType, z.ZodType | null>>;
  headers?: Record<string, { description: string; schema: z.ZodType }>;
}

/**
 * One operation of the gateway. `P` keeps the path's literal type and the whole declaration keeps
 * its schemas' types (`route` takes it as a const type parameter), so a handler's parsed input and
 * its JSON answers are typed from the contract itself (serve.ts).
 */
export interface RouteContract<P extends string = string> {
  method: HttpMethod;
  /** The same operation under other verbs (documented as `x-also-methods`). */
  alsoMethods?: readonly ExtraMethod[];
  /** OpenAPI style: /x/{id}. */
  path: P;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  security: Security;
  developmentOnly?: boolean;
  request?: RequestContract;
  responses: Readonly<Record<number, ResponseContract>>;
}

/** Declares a route, keeping every literal and schema type of the declaration. */
export const route = <const C extends RouteContract>(contract: C): C => contract;

export const json = <S extends z.ZodType>(schema: S) => ({ "application/json": schema }) as const;

type ErrorResponses<D extends Record<number, string>> = { [K in keyof D]: { description: string; content: { "application/json": typeof ZErrorBody } } };

/** The contract's error body under each given status. */
export function errors<const D extends Record<number, string>>(described: D): ErrorResponses<D> {
  return Object.fromEntries(
    Object.entries(described).map(([status, description]) => [status, { description, content: json(ZErrorBody) }]),
  ) as ErrorResponses<D>;
}

// Security alternatives used by the routes.
export const PUBLIC = [] as const satisfies Security;
/**
 * Every authenticated route takes what Penneo's published clients send: the access token as
 * `X-Auth-Token` (alone or with `Authorization: JWT`) or `Authorization: Bearer`, or WSSE; and the
 * web application's session cookie (with `X-CSRF-Token` on unsafe methods).
 */
export const API_AUTH = [
  { XAuthToken: [] },
  { BearerAuth: [] },
  { OAuth2ClientCredentials: [] },
  { Wsse: [] },
  { SessionCookie: [] },
] as const satisfies Security;
/** The web application's session alone (GET and DELETE /api/v3/session). */
export const SESSION_AUTH = [{ SessionCookie: [] }] as const satisfies Security;
/** Client credentials in the body, or in HTTP Basic (RFC 6749 2.3.1). */
export const CLIENT_AUTH = [{}, { ClientBasicAuth: [] }] as const satisfies Security;

export const TAGS = {
  auth: "Authentication",
  caseFiles: "Case files",
  penneoApi: "Case files at Penneo's paths",
  folders: "Folders",
  contacts: "Contacts",
  users: "Users and sessions",
  company: "Company",
  credentials: "API credentials",
  webhooks: "Webhook subscriptions",
  signing: "Signing",
  verification: "Verification",
  simulator: "Identity provider simulator (development only)",
  dashboard: "Queue dashboard (platform operators)",
  operations: "Operations",
  docs: "Documentation",
  webapp: "Web application",
} as const;

/** Whether a route needs credentials: some alternative of its security names a scheme. */
export const needsCredentials = (security: Security): boolean => security.length > 0 && security.every((alternative) => Object.keys(alternative).length > 0);
