import { AppError } from "@esign/errors";
import { ZSecureSigningMethod } from "@esign/schema";
import { IdentityProviderUnavailable } from "../../identity/identity-provider";
import { pageLanguage, wantsHtml } from "../negotiate";
import { allowedMethods, describeAllowed } from "../signing-methods";
import type { LoginPurpose } from "../identity-session";
import type { SigningKit } from "../signing-kit";
import type { SigningHandler } from "../signing-contracts";

/** Starts an identity login (to sign, or to identify for a sensitive case file): the redirect to the provider. */
export function secureStartRoute(kit: SigningKit): SigningHandler<"startSecureLogin"> {
  const { sessions, idp, callbackUrl, load, gate, unavailable, requireDocumentsToSign } = kit;
  return async ({ params, body }, req, res) => {
    const sc = await load(params.token, res);
    const purpose: LoginPurpose = body.purpose;
    gate(sc, purpose === "identify");
    if (!idp) throw unavailable("No identity provider is configured for secure signing methods");
    // Whether the path names a method this signer may use: a question about the signer, not the path.
    const method = ZSecureSigningMethod.safeParse(params.method);
    const allowed = allowedMethods(sc.signer);
    if (!method.success || !allowed.secure.includes(method.data)) {
      throw new AppError("method_not_allowed", `Secure method "${params.method}" is not allowed for this signer; allowed: ${describeAllowed(allowed)}`);
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
