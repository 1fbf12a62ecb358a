import { pageLanguage, wantsHtml } from "../negotiate";
import { requestEvidence } from "../../http/request-evidence";
import { recordOpened } from "../signer-actions";
import { sendIdentityPage, sendSigningPage } from "../signing-page";
import { buildView } from "../signing-view";
import type { SigningKit } from "../signing-kit";
import type { SigningHandler } from "../signing-contracts";

/** The signing page (HTML) or its view (JSON); a GET by the signer counts as an opening, a HEAD (link scanners) does not. */
export function signingPageRoute(kit: SigningKit): SigningHandler<"getSigningPage"> {
  const { ctx, base, idpOrigins, secureMethods, load, gate, identityStartUrls, identityMissing } = kit;
  return async ({ params }, req, res) => {
    const sc = await load(params.token, res);
    gate(sc, true);
    const missing = identityMissing(req, sc);
    if (missing) {
      if (missing.code === "identity_required" && wantsHtml(req)) {
        return sendIdentityPage(res, pageLanguage(req, res), sc.caseFile.title, identityStartUrls(sc), idpOrigins);
      }
      throw missing;
    }
    const view = buildView(sc, base, secureMethods(sc));
    // HEAD is what link scanners send: only a real GET is an opening.
    if (view.state === "pending" && req.method === "GET") await recordOpened(ctx.db, sc.signer, sc.caseFile, requestEvidence(req));
    if (wantsHtml(req)) return sendSigningPage(res, view, pageLanguage(req, res), idpOrigins);
    res.json(view);
  };
}
