import path from "node:path";
import type express from "express";
import { Router } from "express";
import { AppError } from "@esign/errors";
import type { SigningRoutes } from "./signing-contracts";
import { serve } from "../contract/serve";

const MAX_AGE_MS = 60 * 60 * 1000;

const pdfjsDir = () => path.dirname(require.resolve("pdfjs-dist/package.json"));

/**
 * The signing page's script and PDF.js (signing-asset-files.ts), served from this gateway: the signer's
 * browser talks to it only.
 */
export function signingAssetsRouter(routes: SigningRoutes): Router {
  const router = Router();
  const dist = pdfjsDir();
  const send = (root: string, file: string, res: express.Response, next: express.NextFunction) =>
    res.sendFile(file, { root, maxAge: MAX_AGE_MS, dotfiles: "deny" }, (err) => {
      if (err) next((err as { status?: number }).status === 404 ? new AppError("not_found", "No such file") : err);
    });

  serve(router, routes.signingPageScript, (_input, _req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.type("text/javascript");
    send(path.join(__dirname, "browser"), "signing-page.js", res, next);
  });
  serve(router, routes.pdfjsModule, ({ params }, _req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.type("text/javascript");
    // The legacy build: signers open their link on whatever phone they have, and PDF.js's modern
    // build only supports the latest browser versions (its FAQ); the legacy one is polyfilled.
    send(path.join(dist, "legacy", "build"), params.file, res, next);
  });
  serve(router, routes.pdfjsData, ({ params }, _req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    send(path.join(dist, params.folder), params.file, res, next);
  });
  return router;
}
