import { Router } from "express";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { authenticate } from "../auth/authenticate";
import { clearSessionCookie, sessionCookieOf } from "../auth/session-cookie";
import { endSession } from "../auth/session-store";
import { roleOf, viewerOf } from "../auth/viewer";
import { serve } from "../contract/serve";
import { requestIdOf } from "../http/request-context";
import { userRoutes } from "./user-contracts";
import { acceptInvitation, invite, openInvitation } from "./invitations";
import { sessionView, signedIn } from "./session-answer";
import { signInUser } from "./sign-in";
import { changeUser, listUsers, presentUser } from "./user-admin";

/**
 * The web application's sign-in (a session cookie), the customer's users and invitations. Public
 * API routes like any other: the web application uses nothing an integrator cannot.
 */
export function userRouter(ctx: GatewayContext): Router {
  const router = Router();
  const routes = userRoutes();
  const auth = authenticate(ctx);
  const adminOnly = authenticate(ctx, { admin: true });

  serve(router, routes.signIn, async ({ body }, req, res) => {
    const userId = await signInUser(ctx, req, body.email, body.password);
    ctx.logger.info("user signed in", { requestId: requestIdOf(res), userId });
    res.json(await signedIn(ctx, res, userId));
  });

  serve(router, routes.getSession, auth, async (_input, _req, res) => {
    const viewer = viewerOf(res);
    const csrfToken = res.locals.sessionCsrfToken as string | undefined;
    if (viewer.via !== "session" || !csrfToken) throw new AppError("unauthorized", "Not signed in: this route reads the session cookie");
    res.json(await sessionView(ctx, viewer.userId, csrfToken));
  });

  serve(router, routes.signOut, auth, async (_input, req, res) => {
    const cookie = sessionCookieOf(req);
    if (cookie) await endSession(ctx, cookie);
    clearSessionCookie(res, ctx.config);
    res.status(204).end();
  });

  serve(router, routes.listUsers, auth, async (_input, _req, res) => {
    res.json((await listUsers(ctx, viewerOf(res))).map(presentUser));
  });

  serve(router, routes.updateUser, adminOnly, async ({ params, body }, _req, res) => {
    const user = await changeUser(ctx, viewerOf(res).customerId, params.id, body);
    ctx.logger.info("user changed", { requestId: requestIdOf(res), userId: user.id, by: viewerOf(res).userId, change: Object.keys(body).join(",") });
    res.json(presentUser(user));
  });

  serve(router, routes.inviteUser, adminOnly, async ({ body }, _req, res) => {
    const invitation = await invite(ctx, viewerOf(res), body);
    ctx.logger.info("user invited", { requestId: requestIdOf(res), invitationId: invitation.id, by: viewerOf(res).userId });
    res.status(201).json({ id: invitation.id, email: invitation.email, role: roleOf(invitation.isAdmin), expiresAt: invitation.expiresAt.toISOString() });
  });

  serve(router, routes.getInvitation, async ({ params }, _req, res) => {
    const invitation = await openInvitation(ctx, params.token);
    res.json({
      email: invitation.email,
      role: roleOf(invitation.isAdmin),
      customerName: invitation.customer.name,
      expiresAt: invitation.expiresAt.toISOString(),
    });
  });

  serve(router, routes.acceptInvitation, async ({ params, body }, _req, res) => {
    const userId = await acceptInvitation(ctx, params.token, body.name, body.password);
    ctx.logger.info("invitation accepted", { requestId: requestIdOf(res), userId });
    res.json(await signedIn(ctx, res, userId));
  });

  return router;
}
