import type { z } from "zod";
import { apiErrorFrom, readJson, type HttpMethod, type Transport } from "./http";

/**
 * How a call authenticates: creation and case-file endpoints read `X-Auth-Token`; webhook endpoints
 * take the spec's `Authorization: JWT` + `X-Auth-Token`; job status needs no token.
 */
export type AuthStyle = "x-auth-token" | "webhook" | "none";

export interface ApiRequest {
  method: HttpMethod;
  path: string;
  auth: AuthStyle;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as multipart/form-data (reusable, so the 401 retry can send it again). */
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function authHeaders(style: AuthStyle, token: string): Record<string, string> {
  if (style === "webhook") return { Authorization: "JWT", "X-Auth-Token": token };
  if (style === "x-auth-token") return { "X-Auth-Token": token };
  return {};
}

/**
 * How calls prove who makes them: an OAuth token (the Node client's TokenManager) or a browser's
 * session cookie with its CSRF token (./session-auth.ts). Kept as an interface so this file, and every
 * resource built on it, imports nothing of Node: the web application bundles them for the browser.
 */
export interface Authenticator {
  /** A credential for one attempt. */
  get(): Promise<string>;
  /** After a 401 with `credential`: forget it so the next get() fetches a new one. */
  invalidate(credential: string): void;
  /** The headers that carry `credential` on a request of `method`. */
  headers(style: Exclude<AuthStyle, "none">, credential: string, method: HttpMethod): Record<string, string>;
  /** Whether one retry after a 401 may help (a token can be renewed; a signed-out session cannot). */
  readonly retriesAfter401: boolean;
}

/** Token headers: creation and case-file endpoints read X-Auth-Token, webhook endpoints the spec's pair. */
export function tokenHeaders(style: Exclude<AuthStyle, "none">, token: string): Record<string, string> {
  return authHeaders(style, token);
}

/** Authenticated calls: a credential from the authenticator, and one retry with a fresh one after a 401. */
export class Api {
  constructor(
    private readonly transport: Transport,
    private readonly tokens: Authenticator,
  ) {}

  /** The 2xx response, or throws EsignApiError / EsignNetworkError. */
  async send(req: ApiRequest): Promise<Response> {
    const what = `${req.method} ${req.path.split("?")[0]}`;
    const attempt = async (token: string | undefined) =>
      this.transport.send({
        method: req.method,
        path: req.path,
        headers: {
          Accept: "application/json",
          "Accept-Charset": "utf-8",
          ...(req.json !== undefined ? { "Content-Type": "application/json" } : {}),
          ...(token !== undefined && req.auth !== "none" ? this.tokens.headers(req.auth, token, req.method) : {}),
          ...req.headers,
        },
        ...(req.json !== undefined ? { body: JSON.stringify(req.json) } : req.form !== undefined ? { body: req.form } : {}),
        ...(req.signal !== undefined ? { signal: req.signal } : {}),
      });

    if (req.auth === "none") {
      const res = await attempt(undefined);
      if (!res.ok) throw await apiErrorFrom(res, what);
      return res;
    }
    const token = await this.tokens.get();
    let res = await attempt(token);
    if (res.status === 401 && this.tokens.retriesAfter401) {
      // Revoked, expired early, or a clock far off: one retry with a new token, never more.
      await res.body?.cancel();
      this.tokens.invalidate(token);
      res = await attempt(await this.tokens.get());
    }
    if (!res.ok) throw await apiErrorFrom(res, what);
    return res;
  }

  async json<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>> {
    const res = await this.send(req);
    return readJson(res, schema, `${req.method} ${req.path.split("?")[0]}`);
  }

  async empty(req: ApiRequest): Promise<void> {
    const res = await this.send(req);
    await res.body?.cancel();
  }

  /** The body's bytes (no Buffer here: the browser has none). */
  async bytes(req: ApiRequest): Promise<ArrayBuffer> {
    const res = await this.send(req);
    return res.arrayBuffer();
  }
}
