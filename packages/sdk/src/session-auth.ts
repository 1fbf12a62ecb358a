import type { Authenticator, AuthStyle } from "./api";
import type { HttpMethod } from "./http";

const SAFE: ReadonlySet<HttpMethod> = new Set(["GET"]);

/**
 * A browser's credential: the HttpOnly `esign_session` cookie, which the browser sends by itself, and
 * the session's CSRF token, which this sends as `X-CSRF-Token` on every unsafe method. A 401 means the
 * session ended: no retry (the application shows the sign-in page).
 */
export class SessionAuth implements Authenticator {
  readonly retriesAfter401 = false;
  private csrfToken = "";

  /** After sign-in or GET /api/v3/session: the token of this session ("" when signed out). */
  set(csrfToken: string): void {
    this.csrfToken = csrfToken;
  }

  get(): Promise<string> {
    return Promise.resolve(this.csrfToken);
  }

  invalidate(): void {
    this.csrfToken = "";
  }

  headers(_style: Exclude<AuthStyle, "none">, csrfToken: string, method: HttpMethod): Record<string, string> {
    return SAFE.has(method) || csrfToken === "" ? {} : { "X-CSRF-Token": csrfToken };
  }
}
