import { AppError } from "@esign/errors";
import { requestEvidence } from "../../http/request-evidence";
import { parseSignatureValue } from "../signature-value";
import { recordSignature } from "../signer-actions";
import { allowedMethods, describeAllowed, isSecureMethod } from "../signing-methods";
import type { SigningKit } from "../signing-kit";
import type { SigningHandler } from "../signing-contracts";

/** A signature with an insecure method (typed name, drawing, image); secure methods sign through the identity provider. */
export function signRoute(kit: SigningKit): SigningHandler<"sign"> {
  const { ctx, pageUrl, refOf, load, gate, validatedIdentity, identityMissing, requireDocumentsToSign, answerSigned } = kit;
  return async ({ params, body: { method, value } }, req, res) => {
    const sc = await load(params.token, res);
    gate(sc, false);
    const missing = identityMissing(req, sc);
    if (missing) throw missing;
    if (isSecureMethod(method)) {
      throw new AppError(
        "method_not_allowed",
        `"${method}" is a secure method: it is only accepted through the identity provider (POST ${pageUrl(sc)}/secure/${method}/start)`,
        [{ path: "method", code: "secure_method_needs_identity_provider", message: `"${method}" needs the identity provider` }],
      );
    }
    const allowed = allowedMethods(sc.signer);
    const insecure = allowed.insecure.find((m) => m === method);
    if (!insecure) {
      const message = `Signing method "${method}" is not allowed for this signer; allowed: ${describeAllowed(allowed)}`;
      throw new AppError("method_not_allowed", message, [{ path: "method", code: "method_not_allowed", message }]);
    }
    requireDocumentsToSign(sc);
    const parsed = parseSignatureValue(insecure, value);
    // Images are stored before the transaction; if it then refuses, the orphan is one content-addressed file.
    const stored = parsed.kind === "text" ? parsed.name : await ctx.storage.put(parsed.bytes);
    const signature = {
      method: insecure,
      value: stored,
      imageUpload: insecure === "image",
      evidence: requestEvidence(req),
      identity: validatedIdentity(req, sc),
    };
    const result = await recordSignature(ctx.db, refOf(sc), signature, (fresh) => {
      if (!allowedMethods(fresh).insecure.includes(insecure))
        throw new AppError("method_not_allowed", `Signing method "${insecure}" is not allowed for this signer`);
    });
    answerSigned(req, res, sc, result.signerId);
  };
}
