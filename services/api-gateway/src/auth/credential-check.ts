import { credentialStanding, touchCredential, type CredentialStanding } from "@esign/accounts";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import type { Principal } from "./jwt";

// Bounded: one entry per credential seen lately; the oldest goes first.
const MAX_ENTRIES = 10_000;
const TOUCH_EVERY_MS = 60_000;

export interface CredentialCheck {
  /** Throws 401 when the token's credential is revoked, or the token predates its last rotation. */
  assertStanding(principal: Principal): Promise<void>;
  /** Notes a use of the credential (lastUsedAt), at most once a minute per credential and gateway. */
  touch(clientId: string): void;
}

/**
 * Revocation that reaches access tokens within seconds (issue 26, item 11). A token is a signed JWT
 * that lives an hour; each request's token is checked against its credential's standing, read from
 * PostgreSQL and kept CREDENTIAL_CHECK_CACHE_MS (2 s) per gateway: one indexed read per credential
 * and 2 s, not one per request.
 */
export function credentialCheck(ctx: GatewayContext): CredentialCheck {
  const cacheMs = ctx.config.CREDENTIAL_CHECK_CACHE_MS;
  const standings = new Map<string, { standing: CredentialStanding | null; readAt: number }>();
  const touched = new Map<string, number>();

  async function standingOf(clientId: string): Promise<CredentialStanding | null> {
    const now = Date.now();
    const hit = standings.get(clientId);
    if (hit && now - hit.readAt < cacheMs) return hit.standing;
    const standing = await credentialStanding(ctx.db, clientId);
    standings.delete(clientId);
    if (standings.size >= MAX_ENTRIES) standings.delete(standings.keys().next().value as string);
    standings.set(clientId, { standing, readAt: now });
    return standing;
  }

  return {
    async assertStanding(principal) {
      const standing = await standingOf(principal.clientId);
      const stale = standing?.tokensValidAfterMs != null && (principal.issuedAtMs ?? 0) < standing.tokensValidAfterMs;
      if (!standing || standing.revoked || stale) throw new AppError("unauthorized", "The access token's credential was revoked or rotated");
    },
    touch(clientId) {
      const now = Date.now();
      if (now - (touched.get(clientId) ?? 0) < TOUCH_EVERY_MS) return;
      touched.delete(clientId);
      if (touched.size >= MAX_ENTRIES) touched.delete(touched.keys().next().value as string);
      touched.set(clientId, now);
      touchCredential(ctx.db, clientId).catch((err: unknown) => ctx.logger.warn("credential use not recorded", { error: (err as Error).message }));
    },
  };
}

const built = new WeakMap<GatewayContext, CredentialCheck>();
/** One check (and cache) per gateway. */
export function credentialCheckOf(ctx: GatewayContext): CredentialCheck {
  let check = built.get(ctx);
  if (!check) built.set(ctx, (check = credentialCheck(ctx)));
  return check;
}
