import type { z } from "zod";
import { EsignApiError, EsignNetworkError, EsignResponseError } from "./errors";
import { ZErrorBody } from "./schemas";

/** The fetch this SDK calls: Node's global fetch unless one is injected (tests, proxies, tracing). */
export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface SendInit {
  method: HttpMethod;
  /** Path and query, starting with "/". */
  path: string;
  headers?: Record<string, string>;
  body?: string | FormData;
  signal?: AbortSignal;
}

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "idempotency_mismatch",
  429: "too_many_requests",
  500: "internal_error",
  503: "service_unavailable",
};

/** Retry-After as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? ` (${(cause as { code?: string }).code ?? cause.message})` : "";
    return `${err.message}${detail}`;
  }
  return String(err);
}

/** Turns a non-2xx answer into an EsignApiError; tolerant of bodies that are not the contract's. */
export async function apiErrorFrom(res: Response, what: string): Promise<EsignApiError> {
  let text = "";
  try {
    text = await res.text();
  } catch {
    // The body could not be read; status and headers still make a useful error.
  }
  let body: unknown = text === "" ? undefined : text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  const parsed = ZErrorBody.safeParse(body);
  const fields = parsed.success ? parsed.data : {};
  const retryAfterSeconds = parseRetryAfter(res.headers.get("retry-after"));
  const requestId = res.headers.get("x-request-id") ?? undefined;
  return new EsignApiError({
    status: res.status,
    code: fields.error ?? CODE_BY_STATUS[res.status] ?? (res.status >= 500 ? "server_error" : "http_error"),
    // The token endpoint answers in the OAuth 2.0 shape (RFC 6749 5.2): its text is error_description.
    message: fields.message ?? fields.error_description ?? `${what} answered HTTP ${res.status}`,
    ...(fields.errors !== undefined ? { errors: fields.errors } : {}),
    ...(fields.errorId !== undefined ? { errorId: fields.errorId } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}

/** Reads a 2xx JSON body and checks it against the contract's schema. */
export async function readJson<S extends z.ZodType>(res: Response, schema: S, what: string): Promise<z.output<S>> {
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw new EsignNetworkError(`${what}: reading the answer failed: ${describe(err)}`, isTimeout(err), { cause: err });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new EsignResponseError(`${what}: the answer is not JSON (is the base URL right?)`, res.status, text.slice(0, 500), { cause: err });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new EsignResponseError(`${what}: unexpected answer shape: ${issues.join("; ")}`, res.status, body, { cause: parsed.error });
  }
  return parsed.data;
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.name === "TimeoutError";
}

/** One HTTP exchange with the API origin: base URL, per-attempt timeout, caller's abort signal. */
export class Transport {
  constructor(
    private readonly baseUrl: string,
    private readonly fetchFn: FetchFn,
    private readonly requestTimeoutMs: number,
    private readonly userAgent: string,
  ) {}

  async send(init: SendInit): Promise<Response> {
    const what = `${init.method} ${init.path.split("?")[0]}`;
    // AbortSignal.timeout's timer is unref'd: a pending timeout never keeps the process alive.
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      return await this.fetchFn(`${this.baseUrl}${init.path}`, {
        method: init.method,
        headers: { "User-Agent": this.userAgent, ...init.headers },
        ...(init.body !== undefined ? { body: init.body } : {}),
        signal,
      });
    } catch (err) {
      if (init.signal?.aborted) throw init.signal.reason;
      if (timeout.aborted) {
        throw new EsignNetworkError(`${what}: no answer within ${this.requestTimeoutMs} ms`, true, { cause: err });
      }
      throw new EsignNetworkError(`${what} failed: ${describe(err)}`, false, { cause: err });
    }
  }
}
