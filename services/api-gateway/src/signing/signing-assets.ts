import path from "node:path";
import type express from "express";
import { Router } from "express";
import { AppError } from "@esign/errors";
import { z } from "zod";

/**
 * The signing page's script and PDF.js (pdfjs-dist, from node_modules: no CDN; the signer's browser
 * talks to this gateway only). Only the files the viewer needs are served: the library and its
 * worker, and the folders it fetches fonts, character maps, colour profiles and image decoders from.
 */
export const SIGNING_ASSETS_PATH = "/sign-assets";
export const SIGNING_PAGE_SCRIPT = `${SIGNING_ASSETS_PATH}/signing-page.js`;
const PDFJS_PATH = `${SIGNING_ASSETS_PATH}/pdfjs`;

export const PDFJS_FILES = ["pdf.min.mjs", "pdf.worker.min.mjs"] as const;
export const PDFJS_FOLDERS = ["standard_fonts", "cmaps", "iccs", "wasm"] as const;

export const ZSigningAssetParams = z.object({ file: z.literal("signing-page.js").describe("The signing page's script") });
export const ZPdfjsFileParams = z.object({ file: z.enum(PDFJS_FILES).describe("PDF.js (pdfjs-dist) and its worker") });
export const ZPdfjsFolderParams = z.object({
  folder: z.enum(PDFJS_FOLDERS).describe("Data PDF.js fetches while rendering"),
  file: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .describe("A file of that folder of pdfjs-dist"),
});

export const pdfjsAsset = (file: (typeof PDFJS_FILES)[number]) => `${PDFJS_PATH}/${file}`;

/** getDocument options of the page's script: every URL on this gateway, no eval, nothing fetched ahead. */
export const PDFJS_OPTIONS = {
  standardFontDataUrl: `${PDFJS_PATH}/standard_fonts/`,
  cMapUrl: `${PDFJS_PATH}/cmaps/`,
  cMapPacked: true,
  iccUrl: `${PDFJS_PATH}/iccs/`,
  wasmUrl: `${PDFJS_PATH}/wasm/`,
  enableXfa: false,
  // The document route answers whole files, not ranges.
  disableRange: true,
};

const MAX_AGE_MS = 60 * 60 * 1000;

const pdfjsDir = () => path.dirname(require.resolve("pdfjs-dist/package.json"));

export function signingAssetsRouter(): Router {
  const router = Router();
  const dist = pdfjsDir();
  const send = (root: string, file: string, res: express.Response, next: express.NextFunction) =>
    res.sendFile(file, { root, maxAge: MAX_AGE_MS, dotfiles: "deny" }, (err) => {
      if (err) next((err as { status?: number }).status === 404 ? new AppError("not_found", "No such file") : err);
    });

  router.get(`${SIGNING_ASSETS_PATH}/:file`, (req, res, next) => {
    if (!ZSigningAssetParams.safeParse(req.params).success) throw new AppError("not_found", "No such file");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.type("text/javascript");
    send(path.join(__dirname, "browser"), "signing-page.js", res, next);
  });
  router.get(`${PDFJS_PATH}/:file`, (req, res, next) => {
    const parsed = ZPdfjsFileParams.safeParse(req.params);
    if (!parsed.success) throw new AppError("not_found", "No such file");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.type("text/javascript");
    // The legacy build: signers open their link on whatever phone they have, and PDF.js's modern
    // build only supports the latest browser versions (its FAQ); the legacy one is polyfilled.
    send(path.join(dist, "legacy", "build"), parsed.data.file, res, next);
  });
  router.get(`${PDFJS_PATH}/:folder/:file`, (req, res, next) => {
    const parsed = ZPdfjsFolderParams.safeParse(req.params);
    if (!parsed.success) throw new AppError("not_found", "No such file");
    res.setHeader("X-Content-Type-Options", "nosniff");
    send(path.join(dist, parsed.data.folder), parsed.data.file, res, next);
  });
  return router;
}
