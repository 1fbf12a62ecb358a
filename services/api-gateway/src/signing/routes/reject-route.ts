import type { Request, Response } from "express";
import { AppError } from "@esign/errors";
import { zodIssues } from "../../http/zod-issues";
import { requestIdOf } from "../../http/request-context";
import { sendMessagePage } from "../../html/html-page";
import { signingMessages } from "../messages/catalog";
import { requestEvidence } from "../request-evidence";
import { redirectTarget, type SigningKit } from "../signing-kit";
import { pageLanguage, wantsHtml } from "../negotiate";
import { recordRejection } from "../signer-actions";
import { ZRejectBody, bodyOf } from "../signing-schemas";

/** The signer rejects the signing request, with an optional reason. */
export function rejectRoute(kit: SigningKit) {
  const { ctx, refOf, load, gate, identityMissing } = kit;
  return async (req: Request, res: Response): Promise<void> => {
    const sc = await load(req, res);
    gate(sc, false);
    const missing = identityMissing(req, sc);
    if (missing) throw missing;
    const body = ZRejectBody.safeParse(bodyOf(req));
    if (!body.success) throw new AppError("validation_failed", "The rejection is invalid", zodIssues(body.error));
    const result = await recordRejection(ctx.db, refOf(sc), body.data.reason, requestEvidence(req));
    const redirectUrl = redirectTarget(sc.signer.failUrl);
    ctx.logger.info("signer rejected", { requestId: requestIdOf(res), signerId: result.signerId, caseFileId: sc.caseFile.id });
    if (!wantsHtml(req)) {
      res.json({ status: "rejected", signerId: result.signerId, redirectUrl });
      return;
    }
    if (redirectUrl) return res.redirect(303, redirectUrl);
    const m = signingMessages(pageLanguage(req, res));
    sendMessagePage(res, 200, pageLanguage(req, res), m.page.rejectedTitle, m.page.rejectedMessage);
  };
}
