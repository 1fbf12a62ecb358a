import { randomBytes, randomUUID } from "node:crypto";
import { run, runOne, sha256Hex, sqlPool, type Db } from "@esign/db";
import type { AuthenticatedClient } from "./authenticate-client";
import { apiClientOfTokenSql, insertRefreshTokenSql, lockRefreshTokenSql, markRefreshTokenUsedSql, revokeRefreshFamilySql } from "./refresh-tokens.sql";

export interface IssuedRefreshToken {
  token: string;
  expiresAt: Date;
}

/** Why a refresh token was refused; the token endpoint answers `invalid_grant` for all of them. */
export type RefreshRefusal = "unknown" | "wrong_client" | "expired" | "revoked" | "reused";

export type RefreshOutcome = { ok: true; client: AuthenticatedClient; familyId: string } | { ok: false; reason: RefreshRefusal };

/** A new refresh token for the client; `familyId` continues a rotated chain. Stored as SHA-256 only. */
export async function issueRefreshToken(db: Db, clientId: string, ttlSeconds: number, familyId: string = randomUUID()): Promise<IssuedRefreshToken> {
  const token = `rt_${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  const row = await runOne(sqlPool(db), insertRefreshTokenSql, { id: randomUUID(), familyId, clientId, tokenHash: sha256Hex(token), expiresAt });
  if (!row) throw new Error(`no API client ${clientId} to issue a refresh token to`);
  return { token, expiresAt };
}

/**
 * Spends a refresh token (rotation): a token works once. Presenting a spent one again means it
 * leaked, and revokes its whole family, the current token of the rightful holder included
 * (RFC 6819 5.2.2.3). The row is locked so that two concurrent uses cannot both win.
 */
export async function redeemRefreshToken(db: Db, clientId: string, token: string): Promise<RefreshOutcome> {
  return db.$transaction(async (tx) => {
    const row = await runOne(tx, lockRefreshTokenSql, { tokenHash: sha256Hex(token) });
    if (!row) return { ok: false, reason: "unknown" } as const;
    const client = await runOne(tx, apiClientOfTokenSql, { apiClientId: row.apiClientId });
    // The foreign key cascades: a token's client exists while the token does.
    if (!client) return { ok: false, reason: "unknown" } as const;
    if (client.clientId !== clientId) return { ok: false, reason: "wrong_client" } as const;
    if (row.revokedAt || client.revokedAt) return { ok: false, reason: "revoked" } as const;
    if (row.usedAt) {
      await run(tx, revokeRefreshFamilySql, { familyId: row.familyId, at: new Date() });
      return { ok: false, reason: "reused" } as const;
    }
    if (row.expiresAt.getTime() <= Date.now()) return { ok: false, reason: "expired" } as const;
    await run(tx, markRefreshTokenUsedSql, { id: row.id, at: new Date() });
    return { ok: true, client: { clientId: client.clientId, userId: client.userId, customerId: client.customerId }, familyId: row.familyId } as const;
  });
}
