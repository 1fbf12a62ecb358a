import path from "node:path";
import { z } from "zod";

export const APP_PATH = "/app";
export const APP_ASSETS_PATH = "/app/assets";

/** What `pnpm build` writes (scripts/build-webapp.ts): the application's script and its style sheet. */
export const APP_FILES = ["app.js", "app.css"] as const;

export const ZAppAssetParams = z.object({
  file: z.enum(APP_FILES).describe("A file of the web application, built by pnpm build"),
});

export const ZInviteParams = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,128}$/)
    .describe("The invitation's token, from the mail"),
});

/** The built files' folder: services/api-gateway/dist/webapp (beside the gateway's bundle in an image too). */
export function webappDistDir(): string {
  return path.join(__dirname, "../../dist/webapp");
}
