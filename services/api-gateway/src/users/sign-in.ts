import type { Request } from "express";
import { verifyDecoy, verifyPassword } from "@esign/accounts";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { abuseLimits, addressOf } from "../http/abuse-limits";

const WRONG = "Wrong email or password";

/**
 * The user an email and password sign in, or the 401 (the same for an unknown email, a wrong
 * password and a disabled user, after the same scrypt work). Each attempt is counted as a failure in
 * Redis before the password is checked, per address and per email from that address, and a success
 * gives the points back: parallel guesses cannot all slip past a check made before any of them failed.
 */
export async function signInUser(ctx: GatewayContext, req: Request, email: string, password: string): Promise<number> {
  const limits = abuseLimits(ctx);
  const address = addressOf(req);
  const releaseAddress = await limits.signInFailuresByAddress.reserveFailure(address, "Too many failed sign-ins from this address; try again later");
  const releaseEmail = await limits.signInFailuresByEmail.reserveFailure(
    `${email.toLowerCase()}\u0000${address}`,
    "Too many failed sign-ins for this email; try again later",
  );
  const user = await ctx.db.user.findFirst({
    where: { email: { equals: email, mode: "insensitive" }, passwordHash: { not: null } },
    select: { id: true, passwordHash: true, disabledAt: true },
  });
  const ok = user?.passwordHash ? await verifyPassword(password, user.passwordHash) : await verifyDecoy(password);
  if (!ok || !user || user.disabledAt) throw new AppError("unauthorized", WRONG);
  await Promise.all([releaseAddress(), releaseEmail()]);
  return user.id;
}
