import type { Request, Response } from "express";
import { AppError } from "@esign/errors";
import { ZSecureSigningMethod } from "@esign/schema";
import { zodIssues } from "../../http/zod-issues";
import { IdentityProviderUnavailable } from "../../identity/identity-provider";
import { pageLanguage, wantsHtml } from "../negotiate";
import { allowedMethods, describeAllowed } from "../signing-methods";
import { ZStartBody, bodyOf } from "../signing-schemas";
import type { LoginPurpose } from "../identity-session";
import type { SigningKit } from "../signing-kit";

/** Starts an identity login (to sign, or to identify for a sensitive case file): the redirect to the provider. */
export function secureStartRoute(kit: SigningKit) {
  const { sessions, idp, callbackUrl, load, gate, unavailable, requireDocumentsToSign } = kit;
  return async (req: Request, res: Response): Promise<void> => {
    const sc = await load(req, res);
    const body = ZStartBody.safeParse(bodyOf(req));
    if (!body.success) throw new AppError("validation_failed", "The login request is invalid", zodIssues(body.error));
    const purpose: LoginPurpose = body.data.purpose;
    gate(sc, purpose === "identify");
    if (!idp) throw unavailable("No identity provider is configured for secure signing methods");
    const method = ZSecureSigningMethod.safeParse(req.params.method);
    const allowed = allowedMethods(sc.signer);
    if (!method.success || !allowed.secure.includes(method.data)) {
      throw new AppError(
        "method_not_allowed",
        `Secure method "${String(req.params.method)}" is not allowed for this signer; allowed: ${describeAllowed(allowed)}`,
      );
    }
    if (!idp.supports(method.data)) throw unavailable(`The identity provider is not set up for "${method.data}"`);
    if (purpose === "sign") requireDocumentsToSign(sc);
    const { state, browserSecret } = sessions.startLogin(res, sc.signer.id, method.data, purpose);
    const url = await idp
      .startLogin({ method: method.data, state, returnUrl: callbackUrl, browserSecret, language: pageLanguage(req, res) })
      .catch((err: unknown) => {
        if (err instanceof IdentityProviderUnavailable) throw unavailable(err.message);
        throw err;
      });
    const redirectUrl = url.toString();
    if (wantsHtml(req)) return res.redirect(303, redirectUrl);
    res.json({ redirectUrl });
  };
}
