import { AppError } from "@esign/errors";
import type { Request, Response } from "express";
import { z } from "zod";
import { openStoredId, type CaseFile, type Keyring, type Signer } from "@esign/db";
import { ZSecureSigningMethod, type TSecureSigningMethod } from "@esign/schema";
import type { IdentityLogin } from "../identity/identity-provider";
import { BrowserBoundLogins, cookieOf, setLaxCookie } from "../identity/browser-login";
import { deriveKey, seal, unixNow, unseal } from "../identity/sealed-value";
import { signingPath } from "./signing-link";

/**
 * State kept in the browser, never in a replica's memory:
 * - the login state handed to the identity provider (sealed, 10 min: it names the signer, the method
 *   and the purpose) and a nonce cookie that binds it to the browser that started the login, so a
 *   leaked callback URL cannot be replayed elsewhere. The cookie lives on the one callback path every
 *   login returns to (an OpenID provider only redirects to registered, exact addresses);
 * - after an identity login, a sealed identity cookie (30 min) that opens a sensitiveData or
 *   accessControl signing page, scoped to the one signing link's path.
 */
import { SECURE_CALLBACK_PATH } from "../identity/callback-path";

export { SECURE_CALLBACK_PATH };
export const LOGIN_TTL_SECONDS = 600;
export const IDENTITY_TTL_SECONDS = 1800;
const LOGIN_COOKIE = "esign_login";
const IDENTITY_COOKIE = "esign_identity";

export type LoginPurpose = "sign" | "identify";

const ZLoginState = z.object({
  exp: z.number(),
  sid: z.number().int(),
  m: ZSecureSigningMethod,
  p: z.enum(["sign", "identify"]),
  nh: z.string(),
});
export type LoginState = z.infer<typeof ZLoginState>;

const ZIdentity = z.object({
  exp: z.number(),
  sid: z.number().int(),
  sub: z.string(),
  m: ZSecureSigningMethod,
  /** When the provider vouched (unix seconds). */
  at: z.number(),
  /** The national id accessControl compared, encrypted with ENCRYPTION_KEY (the cookie is readable, the number is not). */
  nid: z.string().nullable(),
});
export type IdentityCookie = z.infer<typeof ZIdentity>;

export interface SessionKeys {
  state: Buffer;
  identity: Buffer;
}

export const sessionKeys = (encryptionKeyHex: string): SessionKeys => ({
  state: deriveKey(encryptionKeyHex, "signing-login-state"),
  identity: deriveKey(encryptionKeyHex, "signing-identity-session"),
});

export class IdentitySessions {
  private readonly logins: BrowserBoundLogins<typeof ZLoginState>;

  constructor(
    private readonly keys: SessionKeys,
    private readonly secureCookies: boolean,
  ) {
    this.logins = new BrowserBoundLogins(
      { key: keys.state, cookie: LOGIN_COOKIE, path: SECURE_CALLBACK_PATH, ttlSeconds: LOGIN_TTL_SECONDS, secure: secureCookies },
      ZLoginState,
    );
  }

  /**
   * Seals the login state and sets the nonce cookie it is bound to. The nonce is also the login's
   * browser secret: the identity provider adapter derives its own per-login secrets from it.
   */
  startLogin(res: Response, signerId: number, method: TSecureSigningMethod, purpose: LoginPurpose): { state: string; browserSecret: string } {
    return this.logins.start(res, { sid: signerId, m: method, p: purpose });
  }

  /** The callback's state: sealed by this gateway and not expired; it names the signer the login is for. */
  openLogin(state: unknown): LoginState & { state: string } {
    const login = this.logins.open(state);
    if (!login || typeof state !== "string") {
      throw new AppError("invalid_login_state", "The identity login is invalid or expired; start it again from the signing page");
    }
    return { ...login, state };
  }

  /** Checks that this browser started the login and spends its nonce; returns the login's browser secret. */
  finishLogin(req: Request, res: Response, login: LoginState): string {
    const nonce = this.logins.finish(req, res, login);
    if (!nonce) {
      throw new AppError("login_session_missing", "This identity login was started in another browser or already used; start it again from the signing page");
    }
    return nonce;
  }

  /** `nationalIdEnc`: the encrypted national id, only when accessControl compared it. */
  grantIdentity(res: Response, token: string, signerId: number, login: IdentityLogin, nationalIdEnc: string | null, now = Date.now()): void {
    const value = seal(
      { exp: unixNow(now) + IDENTITY_TTL_SECONDS, sid: signerId, sub: login.subject, m: login.method, at: unixNow(now), nid: nationalIdEnc },
      this.keys.identity,
    );
    setLaxCookie(res, IDENTITY_COOKIE, value, signingPath(token), IDENTITY_TTL_SECONDS, this.secureCookies);
  }

  identityOf(req: Request, signerId: number): IdentityCookie | null {
    const id = unseal(cookieOf(req, IDENTITY_COOKIE), this.keys.identity, ZIdentity);
    return id && id.sid === signerId ? id : null;
  }
}

/** sensitiveData (case file) and accessControl (signer) both mean: identity first, documents after. */
export const requiresIdentity = (caseFile: Pick<CaseFile, "sensitiveData">, signer: Pick<Signer, "accessControl">) =>
  caseFile.sensitiveData || signer.accessControl;

const normalizeId = (v: string) => v.replace(/[\s-]/g, "").toLowerCase();

/**
 * accessControl: when the signer's national id or phone is on file, the identity provider must
 * vouch for the same one. Without one on file, the login itself is the check. Returns whether the
 * national id was compared (and matched): only then is it worth keeping with the signature.
 */
export function checkAccessControl(signer: Pick<Signer, "accessControl" | "socialSecurityNumberEnc" | "cprEnc">, login: IdentityLogin, keys: Keyring): boolean {
  if (!signer.accessControl) return false;
  // The ids on file are stored encrypted (issue 26): opened here, the one reader that compares them.
  const known = [signer.socialSecurityNumberEnc, signer.cprEnc]
    .map((v) => openStoredId(v, keys))
    .filter((v): v is string => !!v)
    .map(normalizeId);
  if (known.length === 0) return false;
  if (!login.nationalId || !known.includes(normalizeId(login.nationalId))) {
    throw new AppError("identity_mismatch", "The identity you logged in with does not match the person this signing request is for");
  }
  return true;
}
