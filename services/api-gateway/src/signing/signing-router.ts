import { Router, type NextFunction, type Request, type Response } from "express";
import type { GatewayContext } from "../context";
import type { IdentityProvider } from "../identity/identity-provider";
import { signingErrorHandler, signingFailurePage } from "./negotiate";
import { signingDocumentRoute } from "./routes/document-route";
import { signingPageRoute } from "./routes/page-route";
import { rejectRoute } from "./routes/reject-route";
import { secureCallbackRoute } from "./routes/secure-callback-route";
import { secureStartRoute } from "./routes/secure-start-route";
import { signRoute } from "./routes/sign-route";
import { signingAssetsRouter } from "./signing-assets";
import { createSigningKit } from "./signing-kit";
import { signingRoutes } from "./signing-contracts";
import { serve } from "../contract/serve";
import { malformedEscapes } from "../http/malformed-escape";
import { trackingPixelRoute } from "./tracking-pixel-route";

function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Content-Type-Options", "nosniff");
  next();
}

/**
 * The signer's side of a signing link (contract "Signing"): the page, the PDFs, signing, rejecting,
 * secure methods through the identity provider, and the request mail's open-tracking pixel. The
 * token is the credential; every route resolves it first and answers 404 for an unknown one. One
 * module per route under routes/, sharing the kit (signing-kit.ts).
 */
export function signingRouter(ctx: GatewayContext, idp: IdentityProvider | null): Router {
  const router = Router();
  const kit = createSigningKit(ctx, idp);
  const routes = signingRoutes();
  kit.idp?.warmUp?.().catch((err: unknown) => {
    ctx.logger.warn("identity provider not reachable at start; every login tries again", {
      provider: kit.idp?.displayName,
      error: err instanceof Error ? err.message : String(err),
    });
  });

  router.use(signingAssetsRouter(routes));
  router.use(["/sign", "/t"], noStore);
  // Every signing route, per client address: a bounded rate, and once an address has guessed too
  // many unknown links, nothing more from it for the rest of the minute (before any lookup).
  router.use("/sign", kit.bounded);

  serve(router, routes.secureLoginCallback, secureCallbackRoute(kit));
  serve(router, routes.getSigningPage, signingPageRoute(kit));
  serve(router, routes.getSigningDocument, signingDocumentRoute(kit));
  serve(router, routes.sign, signRoute(kit));
  serve(router, routes.reject, rejectRoute(kit));
  serve(router, routes.startSecureLogin, secureStartRoute(kit));
  serve(router, routes.trackingPixel, trackingPixelRoute(ctx));

  router.use(malformedEscapes);
  router.use("/sign", kit.countUnknownLinks);
  router.use(signingErrorHandler(ctx.logger));
  router.use(signingFailurePage(ctx.logger));
  return router;
}
