import { Router, type Response } from "express";
import { serve } from "../contract/serve";
import { webappDistDir } from "./webapp-assets";
import { webappRoutes } from "./webapp-contracts";
import { APP_CSP, appPageHtml } from "./webapp-page";

function pageHeaders(res: Response): void {
  res.setHeader("Content-Security-Policy", APP_CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "no-referrer");
  // The page is tiny and names the files by fixed paths: always revalidated, so a deploy shows at once.
  res.setHeader("Cache-Control", "no-cache");
}

/** GET /app/: the customer's web application, served from its built folder (no CDN). */
export function webappRouter(dir = webappDistDir()): Router {
  const router = Router();
  const page = appPageHtml();
  const routes = webappRoutes();

  serve(router, routes.appPage, (_input, _req, res) => {
    pageHeaders(res);
    res.type("html").send(page);
  });
  serve(router, routes.appInvitePage, (_input, _req, res) => {
    pageHeaders(res);
    res.type("html").send(page);
  });
  serve(router, routes.appAsset, ({ params }, _req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Cache-Control", "no-cache");
    // Only the listed names reach sendFile (the contract's enum).
    res.sendFile(params.file, { root: dir }, (err) => {
      if (err) next(err);
    });
  });
  return router;
}
