import type { ErrorAnswer, HttpAnswer } from "./api";

export const SUBSCRIPTIONS = "/webhook/api/v1/subscriptions";

export interface SubscriptionAnswer {
  customerId: number;
  id: string;
  isActive: boolean;
  secret: string;
  eventTypes: string[];
  endpoint: string;
  createdAt: string;
  updatedAt: string;
}

export interface AttemptAnswer {
  id: string;
  eventId: string;
  attemptNumber: number;
  outcome: string;
  httpStatus: number | null;
  cause: string;
  durationMs: number;
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface AttemptPage {
  data: AttemptAnswer[];
  nextCursor: string | null;
}

/** How a request authenticates: the spec's `Authorization: JWT` + `X-Auth-Token`, a bearer token, or not at all. */
export type AuthMode = "jwt" | "bearer" | "none";

export function authHeaders(token: string, mode: AuthMode = "jwt"): Record<string, string> {
  if (mode === "jwt") return { Authorization: "JWT", "X-Auth-Token": token };
  if (mode === "bearer") return { Authorization: `Bearer ${token}` };
  return {};
}

async function call<T>(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<HttpAnswer<T>> {
  const res = await fetch(`${baseUrl}${SUBSCRIPTIONS}${path}`, {
    method,
    headers: { Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // empty (204) or not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

type Answer<T> = Promise<HttpAnswer<T & ErrorAnswer>>;

/** The subscription API as one customer sees it. */
export function subscriptionClient(baseUrl: string, token: string, mode: AuthMode = "jwt") {
  const h = authHeaders(token, mode);
  return {
    create: (body: unknown): Answer<SubscriptionAnswer> => call(baseUrl, "POST", "", h, body),
    list: (): Answer<{ items: SubscriptionAnswer[] }> => call(baseUrl, "GET", "", h),
    testAll: (): Answer<string> => call(baseUrl, "POST", "/test", h),
    get: (id: string): Answer<SubscriptionAnswer> => call(baseUrl, "GET", `/${id}`, h),
    update: (id: string, body: unknown): Answer<SubscriptionAnswer> => call(baseUrl, "PUT", `/${id}`, h, body),
    remove: (id: string): Answer<string> => call(baseUrl, "DELETE", `/${id}`, h),
    test: (id: string): Answer<{ eventId: string }> => call(baseUrl, "POST", `/${id}/test`, h),
    deliveries: (id: string, query = ""): Answer<AttemptPage> => call(baseUrl, "GET", `/${id}/deliveries${query}`, h),
    redeliver: (id: string, eventId: string): Answer<{ eventId: string }> => call(baseUrl, "POST", `/${id}/deliveries/${eventId}/redeliver`, h),
  };
}

export type SubscriptionClient = ReturnType<typeof subscriptionClient>;
