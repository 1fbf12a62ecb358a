import { defineStatement, qb } from "@esign/db";

/*
 * The statements of refresh-token rotation (refresh-tokens.ts). Redeeming a token is one
 * transaction that locks the token's row first (lockRefreshTokenSql); everything else it writes,
 * it writes under that lock.
 */

const ID = "00000000-0000-4000-8000-000000000000";

/**
 * A new refresh token of the API client named by `clientId`, stored as its SHA-256 only, in
 * `familyId` (a new family, or the rotated token's). Answers the row's id; no row when there is
 * no such client.
 *
 * Locks: the new row only.
 */
export const insertRefreshTokenSql = defineStatement(
  "insert-refresh-token",
  { id: ID, familyId: ID, clientId: "client", tokenHash: "0".repeat(64), expiresAt: new Date(0) },
  ({ id, familyId, clientId, tokenHash, expiresAt }) =>
    qb
      .insertInto("RefreshToken")
      .columns(["id", "familyId", "apiClientId", "tokenHash", "expiresAt"])
      .expression((eb) =>
        eb
          .selectFrom("ApiClient")
          .select((s) => [
            s.cast<string>(s.val(id), "uuid").as("id"),
            s.cast<string>(s.val(familyId), "uuid").as("familyId"),
            "ApiClient.id",
            s.cast<string>(s.val(tokenHash), "text").as("tokenHash"),
            s.cast<Date>(s.val(expiresAt), "timestamptz").as("expiresAt"),
          ])
          .where("clientId", "=", clientId),
      )
      .returning("id"),
  { reuse: "shape" },
);

/**
 * Locks a refresh token by its hash and reads it.
 *
 * Locks: the RefreshToken row (FOR UPDATE) until the transaction ends: two concurrent uses of the
 * same token serialize here, and the second sees it used (and revokes the family).
 */
export const lockRefreshTokenSql = defineStatement(
  "lock-refresh-token",
  { tokenHash: "0".repeat(64) },
  ({ tokenHash }) =>
    qb.selectFrom("RefreshToken").select(["id", "familyId", "expiresAt", "usedAt", "revokedAt", "apiClientId"]).where("tokenHash", "=", tokenHash).forUpdate(),
  { reuse: "shape" },
);

/**
 * The API client a refresh token was issued to: who it is and whether it was revoked.
 *
 * Locks: nothing: a client is only ever revoked, and a revocation committed after this read is the
 * same as one right after the refresh.
 */
export const apiClientOfTokenSql = defineStatement(
  "api-client-of-refresh-token",
  { apiClientId: 1 },
  ({ apiClientId }) => qb.selectFrom("ApiClient").select(["clientId", "userId", "customerId", "revokedAt"]).where("id", "=", apiClientId),
  { reuse: "shape" },
);

/**
 * Revokes every unrevoked token of a family at `at`: a spent token presented again leaked.
 *
 * Locks: the family's rows, by the UPDATE, until the transaction ends (after the presented token's
 * row lock). Another token of the family being redeemed at the same time finishes first, or is
 * revoked before it can be.
 */
export const revokeRefreshFamilySql = defineStatement(
  "revoke-refresh-token-family",
  { familyId: ID, at: new Date(0) },
  ({ familyId, at }) => qb.updateTable("RefreshToken").set({ revokedAt: at }).where("familyId", "=", familyId).where("revokedAt", "is", null),
  { reuse: "shape" },
);

/**
 * Marks a refresh token spent at `at` (rotation: a token works once).
 *
 * Locks: nothing more (the row is already locked by lockRefreshTokenSql).
 */
export const markRefreshTokenUsedSql = defineStatement(
  "mark-refresh-token-used",
  { id: ID, at: new Date(0) },
  ({ id, at }) => qb.updateTable("RefreshToken").set({ usedAt: at }).where("id", "=", id),
  { reuse: "shape" },
);
