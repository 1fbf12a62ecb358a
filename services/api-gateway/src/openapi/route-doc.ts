import type { z } from "zod";
import { ZErrorBody } from "./response-schemas";

export type HttpMethod = "get" | "post" | "put" | "delete";

export const SECURITY_SCHEMES = [
  "XAuthToken",
  "BearerAuth",
  "OAuth2ClientCredentials",
  "ClientBasicAuth",
  "Wsse",
  "MetricsToken",
  "QueueDashboardSession",
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

/** Every schema is a zod object whose properties become parameters. */
export type ParamsSchema = z.ZodObject;

export interface MultipartBody {
  schema: z.ZodObject;
  description: string;
  /** Per part: OpenAPI's encoding (the part's content type) and a description shown beside it. */
  parts: Record<string, { contentType: string; description: string }>;
}

export interface RequestDoc {
  params?: ParamsSchema;
  query?: ParamsSchema;
  headers?: ParamsSchema;
  body?: { schema: z.ZodType; mediaTypes: readonly BodyMediaType[]; description?: string; required?: boolean };
  multipart?: MultipartBody;
}

export interface ResponseDoc {
  description: string;
  /** JSON content must be a schema named in RESPONSE_COMPONENTS; other media types are inlined. */
  content?: Partial<Record<ResponseMediaType, z.ZodType | null>>;
  headers?: Record<string, { description: string; schema: z.ZodType }>;
}

/**
 * One operation of the gateway, declared once: the handler is registered from it (`serve`,
 * ../http/serve-route.ts), its answers are checked against it and the OpenAPI document is built from
 * it. `P` keeps the path's literal type, so a handler's `req.params` has exactly the path's names.
 */
export interface RouteDoc<P extends string = string> {
  method: HttpMethod;
  /** OpenAPI style: /x/{id}. */
  path: P;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  security: Security;
  developmentOnly?: boolean;
  request?: RequestDoc;
  responses: Record<number, ResponseDoc>;
}

/** Declares a route, keeping its path's literal type (for the handler's typed `req.params`). */
export const route = <const P extends string>(doc: RouteDoc<P>): RouteDoc<P> => doc;

export const json = (schema: z.ZodType) => ({ "application/json": schema });

/** The contract's error body under each given status. */
export function errors(described: Record<number, string>): Record<number, ResponseDoc> {
  return Object.fromEntries(Object.entries(described).map(([status, description]) => [status, { description, content: json(ZErrorBody) }]));
}

// Security alternatives used by the routes.
export const PUBLIC: Security = [];
/**
 * Every authenticated route takes what Penneo's published clients send: the access token as
 * `X-Auth-Token` (alone or with `Authorization: JWT`) or `Authorization: Bearer`, or WSSE.
 */
export const API_AUTH: Security = [{ XAuthToken: [] }, { BearerAuth: [] }, { OAuth2ClientCredentials: [] }, { Wsse: [] }];
/** Client credentials in the body, or in HTTP Basic (RFC 6749 2.3.1). */
export const CLIENT_AUTH: Security = [{}, { ClientBasicAuth: [] }];

export const TAGS = {
  auth: "Authentication",
  caseFiles: "Case files",
  penneoApi: "Case files at Penneo's paths",
  webhooks: "Webhook subscriptions",
  signing: "Signing",
  verification: "Verification",
  simulator: "Identity provider simulator (development only)",
  dashboard: "Queue dashboard (platform operators)",
  operations: "Operations",
  docs: "Documentation",
} as const;
