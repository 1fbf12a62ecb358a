import { Router, type Response } from "express";
import { serve } from "../contract/serve";
import { DOCS_INIT_SCRIPT, OPENAPI_DOCUMENT_PATH, swaggerUiDistDir } from "./docs-assets";
import { docsRoutes } from "./docs-contracts";
import { DOCS_CSP, docsInitScript, docsPageHtml } from "./docs-page";

const ASSET_MAX_AGE_MS = 60 * 60 * 1000;

function pageHeaders(res: Response): void {
  res.setHeader("Content-Security-Policy", DOCS_CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "no-referrer");
}

/** GET /docs: swagger-ui over /openapi.json, every file served by this gateway (the machine may be offline). */
export function docsRouter(title = "E-Sign API"): Router {
  const router = Router();
  const dir = swaggerUiDistDir();
  const page = docsPageHtml(title);
  const init = docsInitScript(OPENAPI_DOCUMENT_PATH);
  const routes = docsRoutes();

  serve(router, routes.docsPage, (_input, _req, res) => {
    pageHeaders(res);
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(page);
  });

  serve(router, routes.docsAsset, ({ params }, _req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    if (params.file === DOCS_INIT_SCRIPT) {
      res.setHeader("Cache-Control", "no-cache");
      res.type("text/javascript").send(init);
      return;
    }
    // sendFile is what express.static uses underneath (send): ETag, Last-Modified, ranges; only listed names reach it.
    res.sendFile(params.file, { root: dir, maxAge: ASSET_MAX_AGE_MS }, (err) => {
      if (err) next(err);
    });
  });
  return router;
}
