import { createHash, randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import type { z } from "zod";
import { seal, unixNow, unseal } from "./sealed-value";

/*
 * A login at an outside provider bound to the browser that started it, with nothing in a replica's
 * memory: the state handed to the provider is sealed by this gateway (it says what the login is
 * for, and expires) and carries the digest of a nonce kept in a cookie of the starting browser. A
 * leaked callback URL is useless elsewhere, and the cookie is spent by the first callback. The nonce
 * is also the login's browser secret, from which the OpenID client derives its PKCE verifier and nonce.
 * Used by the signers' eID logins (signing/identity-session.ts) and the web application's SSO.
 */

const digest = (v: string) => createHash("sha256").update(v).digest("base64url");

/** One cookie's value from the request, if present. */
export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.header("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** HttpOnly, SameSite=Lax: the provider's redirect back is a top-level navigation from another site and must carry it. */
export function setLaxCookie(res: Response, name: string, value: string, path: string, maxAgeSeconds: number, secure: boolean): void {
  const attrs = [`${name}=${value}`, `Path=${path}`, `Max-Age=${maxAgeSeconds}`, "HttpOnly", "SameSite=Lax"];
  if (secure) attrs.push("Secure");
  res.append("Set-Cookie", attrs.join("; "));
}

export interface BrowserLoginOptions {
  key: Buffer;
  cookie: string;
  /** The callback's path: the cookie goes nowhere else. */
  path: string;
  ttlSeconds: number;
  secure: boolean;
}

export class BrowserBoundLogins<S extends z.ZodType<{ exp: number; nh: string }>> {
  constructor(
    private readonly options: BrowserLoginOptions,
    private readonly schema: S,
  ) {}

  /** Sets the nonce cookie and seals `payload` with its digest: the state for the provider, and the browser secret. */
  start(res: Response, payload: Record<string, unknown>): { state: string; browserSecret: string } {
    const { key, cookie, path, ttlSeconds, secure } = this.options;
    const nonce = randomBytes(18).toString("base64url");
    setLaxCookie(res, cookie, nonce, path, ttlSeconds, secure);
    const state = seal({ ...payload, exp: unixNow() + ttlSeconds, nh: digest(nonce) }, key);
    return { state, browserSecret: nonce };
  }

  /** The callback's state when sealed by this gateway and not expired; else null. */
  open(state: unknown): z.output<S> | null {
    return unseal(state, this.options.key, this.schema);
  }

  /** Whether this browser started the login: its nonce, spent here (the cookie cleared); null when absent or another's. */
  finish(req: Request, res: Response, login: { nh: string }): string | null {
    const { cookie, path, secure } = this.options;
    const nonce = cookieOf(req, cookie);
    if (!nonce || digest(nonce) !== login.nh) return null;
    setLaxCookie(res, cookie, "", path, 0, secure);
    return nonce;
  }
}
