import { Router, type Response } from "express";
import { issueCredential, listCredentials, revokeCredential, rotateCredential, type CredentialRecord, type IssuedCredential } from "@esign/accounts";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { serve } from "../contract/serve";
import { credentialRoutes } from "./credential-contracts";
import type { CredentialView, IssuedCredentialView } from "./credential-schemas";

const present = (c: CredentialRecord): CredentialView => ({
  id: c.id,
  clientId: c.clientId,
  apiKey: c.apiKey,
  userId: c.userId,
  createdAt: c.createdAt.toISOString(),
  revokedAt: c.revokedAt?.toISOString() ?? null,
  lastUsedAt: c.lastUsedAt?.toISOString() ?? null,
});

const presentIssued = (c: IssuedCredential): IssuedCredentialView => ({
  id: c.id,
  clientId: c.clientId,
  clientSecret: c.clientSecret,
  apiKey: c.apiKey,
  apiSecret: c.apiSecret,
  createdAt: c.createdAt.toISOString(),
});

const notFound = () => new AppError("not_found", "No such credential for this customer");

/**
 * `/api/v3/credentials`: a customer's admins list, make, rotate and revoke its API credentials
 * (issue 26, item 11). Another customer's credential answers 404 exactly like a missing one.
 */
export function credentialRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);
  const routes = credentialRoutes();

  /** The caller's customer, when the caller is one of its admins (User.isAdmin); 403 otherwise. */
  async function adminCustomer(res: Response): Promise<{ customerId: number; userId: number }> {
    const p = principalOf(res);
    const user = await ctx.db.user.findUnique({ where: { id: p.userId }, select: { customerId: true, isAdmin: true } });
    if (!user || user.customerId !== p.customerId || !user.isAdmin) throw new AppError("forbidden", "Only an admin of the customer may manage its credentials");
    return { customerId: p.customerId, userId: p.userId };
  }

  serve(router, routes.listCredentials, auth, async (_input, _req, res) => {
    const { customerId } = await adminCustomer(res);
    res.json((await listCredentials(ctx.db, customerId)).map(present));
  });

  serve(router, routes.createCredential, auth, async (_input, _req, res) => {
    const { customerId, userId } = await adminCustomer(res);
    res.setHeader("Cache-Control", "no-store");
    res.status(201).json(presentIssued(await issueCredential(ctx.db, customerId, userId, ctx.config.ENCRYPTION_KEY)));
  });

  serve(router, routes.rotateCredential, auth, async ({ params }, _req, res) => {
    const { customerId } = await adminCustomer(res);
    const rotated = await rotateCredential(ctx.db, customerId, params.id, ctx.config.ENCRYPTION_KEY);
    if (rotated === "not_found") throw notFound();
    if (rotated === "revoked") throw new AppError("conflict", "A revoked credential cannot be rotated; make a new one");
    res.setHeader("Cache-Control", "no-store");
    res.json(presentIssued(rotated));
  });

  serve(router, routes.revokeCredential, auth, async ({ params }, _req, res) => {
    const { customerId } = await adminCustomer(res);
    if ((await revokeCredential(ctx.db, customerId, params.id)) === "not_found") throw notFound();
    res.status(204).end();
  });
  return router;
}
