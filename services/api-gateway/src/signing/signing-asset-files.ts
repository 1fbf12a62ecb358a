import { z } from "zod";

/**
 * The signing page's script and PDF.js (pdfjs-dist, from node_modules: no CDN; the signer's browser
 * talks to this gateway only). Only the files the viewer needs are served: the library and its
 * worker, and the folders it fetches fonts, character maps, colour profiles and image decoders from.
 */
export const SIGNING_ASSETS_PATH = "/sign-assets";
export const SIGNING_PAGE_SCRIPT = `${SIGNING_ASSETS_PATH}/signing-page.js`;
export const PDFJS_PATH = `${SIGNING_ASSETS_PATH}/pdfjs`;

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
