import { requestIdOf } from "../../http/request-context";
import { sendMessagePage } from "../../html/html-page";
import { signingMessages } from "../messages/catalog";
import { requestEvidence } from "../../http/request-evidence";
import { redirectTarget, type SigningKit } from "../signing-kit";
import { pageLanguage, wantsHtml } from "../negotiate";
import { recordRejection } from "../signer-actions";
import type { SigningHandler } from "../signing-contracts";

/** The signer rejects the signing request, with an optional reason. */
export function rejectRoute(kit: SigningKit): SigningHandler<"reject"> {
  const { ctx, refOf, load, gate, identityMissing } = kit;
  return async ({ params, body }, req, res) => {
    const sc = await load(params.token, res);
    gate(sc, false);
    const missing = identityMissing(req, sc);
    if (missing) throw missing;
    const result = await recordRejection(ctx.db, refOf(sc), body.reason, requestEvidence(req));
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
