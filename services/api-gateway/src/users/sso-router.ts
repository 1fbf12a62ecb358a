import { Router, type Request, type Response } from "express";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { serve } from "../contract/serve";
import { requestIdOf } from "../http/request-context";
import { signedIn } from "./session-answer";
import { createSingleSignOn, SsoRefused } from "./single-sign-on";
import { ssoRoutes } from "./sso-contracts";
import { SSO_START_PATH } from "./sso-schemas";

const APP_URL = "/app/";
const browser = (req: Request) => req.accepts(["html", "json"]) === "html";

/**
 * The web application's single sign-on (single-sign-on.ts). Without SSO_OIDC_ISSUER the offer says
 * `enabled: false` and start and callback answer 404. A browser always lands in the web application:
 * signed in, or on the sign-in page with the reason of the refusal.
 */
export function ssoRouter(ctx: GatewayContext): Router {
  const router = Router();
  const routes = ssoRoutes();
  const sso = createSingleSignOn(ctx);
  sso?.warmUp().catch((err: unknown) => ctx.logger.warn("single sign-on: the OpenID provider is not reachable yet", { error: String(err) }));
  const configured = () => {
    if (!sso) throw new AppError("not_found", "Single sign-on is not configured");
    return sso;
  };

  serve(router, routes.ssoConfig, (_input, _req, res) => {
    res.setHeader("Cache-Control", "no-cache");
    res.json(sso ? { enabled: true, displayName: sso.displayName, startUrl: SSO_START_PATH } : { enabled: false, displayName: null, startUrl: null });
  });

  serve(router, routes.ssoStart, async (_input, _req, res) => {
    const url = await configured().start(res);
    res.redirect(303, url.toString());
  });

  serve(router, routes.ssoCallback, async (_input, req, res: Response) => {
    let userId: number;
    try {
      userId = await configured().finish(req, res);
    } catch (err) {
      if (!(err instanceof SsoRefused)) throw err;
      ctx.logger.warn("single sign-on refused", { requestId: requestIdOf(res), reason: err.reason, error: err.message });
      if (browser(req)) return res.redirect(303, `${APP_URL}?sso=${err.reason}`);
      throw err;
    }
    ctx.logger.info("user signed in", { requestId: requestIdOf(res), userId, via: "sso" });
    const session = await signedIn(ctx, res, userId);
    if (browser(req)) return res.redirect(303, APP_URL);
    res.json(session);
  });

  return router;
}
