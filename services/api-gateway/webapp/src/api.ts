import { EsignApiError, EsignBrowserClient } from "@esign/sdk/browser";

/** The one client of the application: the public API on this origin, signed in by the session cookie. */
export const client = new EsignBrowserClient();

/** A failure as a person reads it: the API's message and each failing field. */
export function describeError(err: unknown): string {
  if (err instanceof EsignApiError) {
    const fields = (err.errors ?? []).map((e) => `${e.path}: ${e.message}`);
    return [err.message, ...fields].join(" · ");
  }
  return err instanceof Error ? err.message : String(err);
}
