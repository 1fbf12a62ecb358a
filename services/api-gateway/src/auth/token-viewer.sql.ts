import { defineStatement, qb } from "@esign/db";

/**
 * The user an API credential's token acts for: its customer, whether it is an admin and whether it
 * is disabled (see tokenViewer). Read on every token-authenticated request - the one database read
 * of a create besides its insert - so it is plain SQL: through Prisma this primary-key read cost
 * ~0.9 ms of the gateway's CPU per request, ~3.7% of a create profile (bench/README.md, issue 25).
 *
 * Locks: nothing.
 */
export const tokenUserSql = defineStatement(
  "token-user",
  { userId: 1 },
  ({ userId }) => qb.selectFrom("User").select(["customerId", "isAdmin", "disabledAt"]).where("id", "=", userId),
  { reuse: "shape" },
);
