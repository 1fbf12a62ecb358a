import { Router } from "express";
import type { GatewayContext } from "../context";
import { authenticate } from "../auth/authenticate";
import { viewerOf } from "../auth/viewer";
import { serve } from "../contract/serve";
import { requestIdOf } from "../http/request-context";
import { companyRoutes } from "./company-contracts";
import { changeCompany, companyOf, presentCompany, presentProfile, requestEboks } from "./company-settings";

/**
 * The customer's company settings: administrators read and change them; every user reads the profile
 * (name, language, signing methods), which is all a member's work needs.
 */
export function companyRouter(ctx: GatewayContext): Router {
  const router = Router();
  const routes = companyRoutes();
  const auth = authenticate(ctx);
  const adminOnly = authenticate(ctx, { admin: true });

  serve(router, routes.getCompany, adminOnly, async (_input, _req, res) => {
    res.json(presentCompany(await companyOf(ctx, viewerOf(res).customerId)));
  });

  serve(router, routes.getCompanyProfile, auth, async (_input, _req, res) => {
    res.json(presentProfile(await companyOf(ctx, viewerOf(res).customerId)));
  });

  serve(router, routes.updateCompany, adminOnly, async ({ body }, _req, res) => {
    const viewer = viewerOf(res);
    const company = await changeCompany(ctx, viewer.customerId, body);
    ctx.logger.info("company settings changed", {
      requestId: requestIdOf(res),
      customerId: viewer.customerId,
      by: viewer.userId,
      change: Object.keys(body).join(","),
    });
    res.json(presentCompany(company));
  });

  serve(router, routes.requestEboks, adminOnly, async (_input, _req, res) => {
    const viewer = viewerOf(res);
    const company = await requestEboks(ctx, viewer.customerId);
    // The platform operator's cue: grant it with `pnpm cli customers eboks grant --customer N`.
    ctx.logger.warn("e-Boks channel requested: grant it with pnpm cli customers eboks grant", {
      requestId: requestIdOf(res),
      customerId: viewer.customerId,
      by: viewer.userId,
      state: presentCompany(company).channels.eboks,
    });
    res.status(202).json(presentCompany(company));
  });

  return router;
}
