import { createHash } from "node:crypto";
import type { GatewayContext } from "../context";
import { abuseLimits } from "../http/abuse-limits";
import { reserveAll, type Reservation } from "../http/failure-budget";

/**
 * Brute force bounded without locking a client out (issue 26, item 3). What we chose, after OWASP's
 * authentication cheat sheet (a lockout must not become a denial of service) and Auth0's brute-force
 * protection ("count per identifier and IP": block the address for that account, not the account):
 *
 * - per address (TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE), whichever clients it names: the guesser;
 * - per client and address (TOKEN_FAILURES_PER_CLIENT_ADDRESS_PER_MINUTE): that address may not try
 *   that client for the rest of the minute, even with the right secret;
 * - per client over all addresses (TOKEN_FAILURES_PER_CLIENT_PER_MINUTE), against a guess spread over
 *   many addresses, enforced only on addresses the client has not authenticated from lately: its
 *   usual addresses go on with the right secret, whatever others guess.
 *
 * Every budget is reserved before the secret is evaluated (failure-budget.ts, item 4).
 */
export interface AttemptGuard {
  /** Reserves the attempt; throws the 429 when a budget is spent. `clientKey`: "client:<id>" or "apikey:<key>". */
  begin(address: string, clientKey: string | undefined): Promise<Attempt>;
}

export interface Attempt {
  /** The credentials were wrong: the slots stay spent for the window. */
  failed(): Promise<void>;
  /** The credentials were right: the slots come back, and the address becomes one of the client's usual ones. */
  succeeded(): Promise<void>;
  /** Neither (a malformed request, a dependency away): the slots come back. */
  abandoned(): Promise<void>;
}

const hashed = (address: string) => createHash("sha256").update(address).digest("base64url").slice(0, 22);

export function attemptGuard(ctx: GatewayContext): AttemptGuard {
  const limits = abuseLimits(ctx);
  const knownKey = (clientKey: string, address: string) => `${ctx.config.QUEUE_PREFIX}:known-address:${clientKey}:${hashed(address)}`;
  const knownSeconds = ctx.config.TOKEN_KNOWN_ADDRESS_DAYS * 86_400;

  // While Redis is away an address counts as known: the client is never locked out for that, and the
  // guesser stays bounded by the per-address budgets (kept in memory meanwhile).
  const isKnown = async (clientKey: string, address: string) => (await ctx.redis.exists(knownKey(clientKey, address)).catch(() => 1)) === 1;

  return {
    async begin(address, clientKey) {
      let known = false;
      const parts = [{ budget: limits.tokenFailuresByAddress, key: address, message: "Too many failed authentications from this address; try again later" }];
      if (clientKey) {
        parts.push({
          budget: limits.tokenFailuresByClientAddress,
          key: `${clientKey}:${hashed(address)}`,
          message: "Too many failed authentications for this client from this address; try again later",
        });
        known = await isKnown(clientKey, address);
        if (limits.tokenFailuresByClient.enabled && !known) {
          parts.push({ budget: limits.tokenFailuresByClient, key: clientKey, message: "Too many failed authentications for this client; try again later" });
        }
      }
      const reservation: Reservation = await reserveAll(parts);
      return {
        failed: () => reservation.settle(true),
        abandoned: () => reservation.settle(false),
        async succeeded() {
          await reservation.settle(false);
          if (clientKey && !known) await ctx.redis.set(knownKey(clientKey, address), "1", "EX", knownSeconds).catch(() => undefined);
        },
      };
    },
  };
}
