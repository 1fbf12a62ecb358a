import type { z } from "zod";
import { apiErrorFrom, readJson, type HttpMethod, type Transport } from "./http";

/**
 * What Api needs of a token source (client.ts's TokenManager): an interface, so that this file and
 * every resource built on it import nothing of Node (the web application bundles them for the browser).
 */
export interface TokenSource {
  get(): Promise<string>;
  invalidate(token: string): void;
}

/**
 * A web-application session instead of API credentials (EsignClient with `session: true`): the
 * browser sends the HttpOnly cookie by itself; outside a browser the cookie of the sign-in answer is
 * kept here and sent back. Unsafe methods carry the session's CSRF token.
 */
export interface SessionState {
  csrfToken?: string;
  /** `esign_session=...`, only where the runtime lets the answer's Set-Cookie be read (Node). */
  cookie?: string;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

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
 * Authenticated calls: a token from the manager, and one retry with a fresh token after a 401; or,
 * without a token manager, the session's cookie and CSRF token.
 */
export class Api {
  constructor(
    private readonly transport: Transport,
    private readonly tokens: TokenSource | null,
    readonly session: SessionState = {},
  ) {}

  private sessionHeaders(method: HttpMethod): Record<string, string> {
    return {
      ...(this.session.cookie !== undefined ? { Cookie: this.session.cookie } : {}),
      ...(this.session.csrfToken !== undefined && !SAFE_METHODS.has(method) ? { "X-CSRF-Token": this.session.csrfToken } : {}),
    };
  }

  /** The 2xx response, or throws EsignApiError / EsignNetworkError. */
  async send(req: ApiRequest): Promise<Response> {
    const what = `${req.method} ${req.path.split("?")[0]}`;
    const attempt = async (auth: Record<string, string>) =>
      this.transport.send({
        method: req.method,
        path: req.path,
        headers: {
          Accept: "application/json",
          "Accept-Charset": "utf-8",
          ...(req.json !== undefined ? { "Content-Type": "application/json" } : {}),
          ...auth,
          ...req.headers,
        },
        ...(req.json !== undefined ? { body: JSON.stringify(req.json) } : req.form !== undefined ? { body: req.form } : {}),
        ...(req.signal !== undefined ? { signal: req.signal } : {}),
      });

    if (req.auth === "none" || this.tokens === null) {
      const res = await attempt(req.auth === "none" ? {} : this.sessionHeaders(req.method));
      if (!res.ok) throw await apiErrorFrom(res, what);
      return res;
    }
    const token = await this.tokens.get();
    let res = await attempt(authHeaders(req.auth, token));
    if (res.status === 401) {
      // Revoked, expired early, or a clock far off: one retry with a new token, never more.
      await res.body?.cancel();
      this.tokens.invalidate(token);
      res = await attempt(authHeaders(req.auth, await this.tokens.get()));
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

  /** The body's bytes (no Buffer here: this file is in the browser's bundle too). */
  async bytes(req: ApiRequest): Promise<ArrayBuffer> {
    const res = await this.send(req);
    return res.arrayBuffer();
  }
}
