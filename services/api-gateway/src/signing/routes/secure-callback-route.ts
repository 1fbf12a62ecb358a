import { AppError } from "@esign/errors";
import { requestIdOf } from "../../http/request-context";
import { checkAccessControl } from "../identity-session";
import { requestEvidence } from "../../http/request-evidence";
import { IdentityLoginFailed, IdentityProviderUnavailable } from "../../identity/identity-provider";
import { wantsHtml } from "../negotiate";
import { recordSignature, type VerifiedIdentity } from "../signer-actions";
import { allowedMethods } from "../signing-methods";
import type { SigningKit } from "../signing-kit";
import type { SigningHandler } from "../signing-contracts";

/** The return of every identity login (one address: OpenID providers register exact redirect URIs); the sealed state says whose login it is. Identifies the signer, or signs with the eID. */
export function secureCallbackRoute(kit: SigningKit): SigningHandler<"secureLoginCallback"> {
  const { ctx, sessions, idp, pageUrl, refOf, callbackUrl, loadOfSigner, gate, nationalIdToKeep, unavailable, requireDocumentsToSign, answerSigned } = kit;
  return async (_input, req, res) => {
    // The identity provider's answer goes on to the adapter exactly as it came (every parameter,
    // also those the contract does not name): the OpenID client checks it whole.
    const query = new URLSearchParams(req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?") + 1) : "");
    const login = sessions.openLogin(query.get("state") ?? undefined);
    const sc = await loadOfSigner(res, login.sid);
    const browserSecret = sessions.finishLogin(req, res, login);
    if (!idp) throw unavailable("No identity provider is configured for secure signing methods");
    const identity = await idp.completeLogin({ method: login.m, state: login.state, returnUrl: callbackUrl, browserSecret, query }).catch((err: unknown) => {
      const known = err instanceof IdentityLoginFailed || err instanceof IdentityProviderUnavailable;
      if (known) ctx.logger.warn("identity login refused", { requestId: requestIdOf(res), signerId: sc.signer.id, method: login.m, error: err.message });
      if (err instanceof IdentityLoginFailed) throw new AppError(err.reason === "cancelled" ? "login_cancelled" : "login_failed", err.message);
      if (err instanceof IdentityProviderUnavailable) throw unavailable(err.message);
      throw err;
    });
    if (identity.method !== login.m) throw new AppError("login_failed", "The identity provider answered for another method than the one started");
    const nationalIdEnc = nationalIdToKeep(identity, checkAccessControl(sc.signer, identity, ctx.config.ENCRYPTION_KEYRING));
    const verifiedAt = new Date();
    if (login.p === "identify") {
      gate(sc, true);
      sessions.grantIdentity(res, sc.token, sc.signer.id, identity, nationalIdEnc, verifiedAt.getTime());
      ctx.logger.info("signer identified", { requestId: requestIdOf(res), signerId: sc.signer.id, caseFileId: sc.caseFile.id, method: identity.method });
      if (wantsHtml(req)) return res.redirect(303, pageUrl(sc));
      res.json({ status: "identified", signerId: sc.signer.id, redirectUrl: pageUrl(sc) });
      return;
    }
    gate(sc, false);
    requireDocumentsToSign(sc);
    const verified: VerifiedIdentity = { provider: idp.displayName, method: identity.method, subject: identity.subject, nationalIdEnc, verifiedAt };
    const signature = { method: identity.method, value: identity.subject, imageUpload: false, evidence: requestEvidence(req), identity: verified };
    const result = await recordSignature(ctx.db, refOf(sc), signature, (fresh) => {
      if (!allowedMethods(fresh).secure.includes(identity.method))
        throw new AppError("method_not_allowed", `Secure method "${identity.method}" is not allowed for this signer`);
    });
    // Signing with an eID proves identity as well: the read-only page of a sensitive case file opens.
    sessions.grantIdentity(res, sc.token, sc.signer.id, identity, nationalIdEnc, verifiedAt.getTime());
    answerSigned(req, res, sc, result.signerId);
  };
}
