import type { Response } from "express";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { setSessionCookie } from "../auth/session-cookie";
import { startSession } from "../auth/session-store";
import { roleOf } from "../auth/viewer";
import type { SessionView } from "./user-schemas";

/** The session's answer for a user, with the CSRF token of that session. */
export async function sessionView(ctx: GatewayContext, userId: number, csrfToken: string): Promise<SessionView> {
  const user = await ctx.db.user.findUnique({ where: { id: userId }, include: { customer: { select: { name: true } } } });
  if (!user) throw new AppError("unauthorized", "Not signed in");
  return {
    user: { id: user.id, email: user.email, name: user.name, role: roleOf(user.isAdmin), customerId: user.customerId, customerName: user.customer.name },
    csrfToken,
  };
}

/** Starts a session for `userId`: its row, its cookie on `res`, and the answer (sign-in and an accepted invitation). */
export async function signedIn(ctx: GatewayContext, res: Response, userId: number): Promise<SessionView> {
  const session = await startSession(ctx, userId);
  setSessionCookie(res, ctx.config, session.token, session.maxAgeSeconds);
  return sessionView(ctx, userId, session.csrfToken);
}
