import { defineStatement, qb } from "@esign/db";

/** Locks a refresh token by its hash and reads it: two concurrent uses cannot both win. */
export const lockRefreshTokenSql = defineStatement("lock-refresh-token", { tokenHash: "0".repeat(64) }, ({ tokenHash }) =>
  qb.selectFrom("RefreshToken").select(["id", "familyId", "expiresAt", "usedAt", "revokedAt", "apiClientId"]).where("tokenHash", "=", tokenHash).forUpdate(),
);
