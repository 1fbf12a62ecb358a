import { parseTrackingId } from "@esign/db";
import type { GatewayContext } from "../context";
import { requestIdOf } from "../http/request-context";
import { requestEvidence } from "../http/request-evidence";
import { recordRequestOpened } from "./signer-actions";
import type { SigningHandler } from "./signing-contracts";

/** The smallest transparent GIF: 1x1, one colour. */
export const PIXEL_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/**
 * GET /t/{trackingId}.gif from the signing-request mail. Always the same GIF, whether the id is
 * valid, unknown or the database is down: the answer tells nothing about signers.
 */
export function trackingPixelRoute(ctx: GatewayContext): SigningHandler<"trackingPixel"> {
  return async ({ params }, req, res) => {
    const signerId = params.file ? parseTrackingId(params.file, ctx.config.ENCRYPTION_KEY) : null;
    if (signerId !== null) {
      try {
        await recordRequestOpened(ctx.db, signerId, requestEvidence(req));
      } catch (err) {
        ctx.logger.warn("request-opened event not recorded", {
          requestId: requestIdOf(res),
          signerId,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
    res.status(200).setHeader("Content-Type", "image/gif");
    res.setHeader("Content-Length", String(PIXEL_GIF.length));
    res.end(PIXEL_GIF);
  };
}
