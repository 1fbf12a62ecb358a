import { Router, type NextFunction, type Request, type Response } from "express";
import { z } from "zod";
import { ZSecureSigningMethod } from "@esign/schema";
import type { GatewayContext } from "../context";
import { contentDisposition } from "../http/content-disposition";
import { abuseLimits, addressOf } from "../http/abuse-limits";
import { zodIssues } from "../http/zod-issues";
import { requestIdOf } from "../http/request-context";
import { encryptSecret } from "@esign/db";
import { IdentityLoginFailed, IdentityProviderUnavailable, type IdentityLogin, type IdentityProvider } from "../identity/identity-provider";
import { sendMessagePage } from "./html";
import { checkAccessControl, IdentitySessions, requiresIdentity, SECURE_CALLBACK_PATH, sessionKeys, type IdentityCookie, type LoginPurpose } from "./identity-session";
import { signerLanguage, signingMessages } from "./messages/catalog";
import { pageLanguage, setPageContext, signingErrorHandler, signingFailurePage, wantsHtml } from "./negotiate";
import { blockerFor } from "./signer-state";
import { requestEvidence } from "./request-evidence";
import { recordOpened, recordRejection, recordSignature, type SignerRef, type VerifiedIdentity } from "./signer-actions";
import { signingAssetsRouter } from "./signing-assets";
import { SigningError } from "./signing-error";
import { loadSigningContext, loadSigningContextOfSigner, signingPath, type SigningContext } from "./signing-link";
import { allowedMethods, describeAllowed, isSecureMethod } from "./signing-methods";
import { sendIdentityPage, sendSigningPage } from "./signing-page";
import { buildView, documentsToSign, visibleDocuments } from "./signing-view";
import { parseSignatureValue } from "./signature-value";
import { trackingPixelRoute } from "./tracking-pixel-route";

export const ZSignBody = z.object({ method: z.string().min(1).max(64), value: z.string() });
export const ZRejectBody = z.object({
  reason: z
    .string()
    .trim()
    .max(2000)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export const ZStartBody = z.object({ purpose: z.enum(["sign", "identify"]).default("sign") });
export const ZDocumentId = z.string().regex(/^\d{1,10}$/).transform(Number);

const bodyOf = (req: Request): unknown => req.body ?? {};

/** successUrl / failUrl are client input: only http(s) addresses are ever used as redirects. */
function redirectTarget(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Content-Type-Options", "nosniff");
  next();
}

/**
 * The signer's side of a signing link (contract "Signing"): the page, the PDFs, signing, rejecting,
 * secure methods through the identity provider, and the request mail's open-tracking pixel. The
 * token is the credential; every route resolves it first and answers 404 for an unknown one.
 */
export function signingRouter(ctx: GatewayContext, idp: IdentityProvider | null): Router {
  const router = Router();
  const base = ctx.config.PUBLIC_BASE_URL;
  const sessions = new IdentitySessions(sessionKeys(ctx.config.ENCRYPTION_KEY), base.startsWith("https:"));
  const idpOrigins = idp ? [idp.origin] : [];
  const pageUrl = (sc: SigningContext) => `${base}${signingPath(sc.token)}`;
  /** The signer's secure methods this gateway's identity provider can serve. */
  const secureMethods = (sc: SigningContext) => (idp ? allowedMethods(sc.signer).secure.filter((m) => idp.supports(m)) : []);
  const refOf = (sc: SigningContext): SignerRef => ({ signerId: sc.signer.id, caseFileId: sc.caseFile.id });

  const callbackUrl = `${base}${SECURE_CALLBACK_PATH}`;
  idp?.warmUp?.().catch((err: unknown) => {
    ctx.logger.warn("identity provider not reachable at start; every login tries again", { provider: idp.displayName, error: err instanceof Error ? err.message : String(err) });
  });
  const limits = abuseLimits(ctx);
  /** Resolves the link; an unknown one counts against the address (link guessing, see below). */
  const load = async (req: Request, res: Response) => {
    try {
      const sc = await loadSigningContext(ctx.db, req.params.token as string | undefined);
      // From here on, every page and refusal is in the signer's language.
      setPageContext(res, signerLanguage(sc.signer, sc.caseFile), pageUrl(sc));
      return sc;
    } catch (err) {
      if (err instanceof SigningError && err.code === "not_found") await limits.signingFailuresByAddress.recordFailure(addressOf(req));
      throw err;
    }
  };

  /** The signer an identity login was for; the pages that follow are in their language. */
  const loadOfSigner = async (res: Response, signerId: number) => {
    const sc = await loadSigningContextOfSigner(ctx.db, signerId, ctx.config.ENCRYPTION_KEY);
    setPageContext(res, signerLanguage(sc.signer, sc.caseFile), pageUrl(sc));
    return sc;
  };

  // Every signing route, per client address: a bounded rate, and once an address has guessed too
  // many unknown links, nothing more from it for the rest of the minute (before any lookup).
  async function bounded(req: Request, res: Response, next: NextFunction): Promise<void> {
    const address = addressOf(req);
    await limits.signingFailuresByAddress.assertUnder(address, "Too many unknown signing links from this address; try again later");
    await limits.signingRequestsByAddress.consume(res, address, "Too many requests from this address; slow down");
    next();
  }

  /** Refuses unless the signer can act; `readOnly` also lets a signer who signed look at the documents. */
  function gate(sc: SigningContext, readOnly: boolean): void {
    const blocker = blockerFor(sc.signer, sc.caseFile, new Date());
    if (blocker && !(readOnly && blocker.code === "already_signed")) throw blocker;
  }

  function identityStartUrls(sc: SigningContext): Record<string, string> {
    return Object.fromEntries(secureMethods(sc).map((m) => [m, `${pageUrl(sc)}/secure/${encodeURIComponent(m)}/start`]));
  }

  /** The identity a validation login left in this browser, as it goes with an insecure signature. */
  function validatedIdentity(req: Request, sc: SigningContext): VerifiedIdentity | null {
    const cookie: IdentityCookie | null = idp ? sessions.identityOf(req, sc.signer.id) : null;
    if (!idp || !cookie) return null;
    return { provider: idp.displayName, method: cookie.m, subject: cookie.sub, nationalIdEnc: cookie.nid, verifiedAt: new Date(cookie.at * 1000) };
  }

  /** A national id is kept (encrypted) only when accessControl compared it with the one on file. */
  const nationalIdToKeep = (identity: IdentityLogin, compared: boolean) =>
    compared && identity.nationalId ? encryptSecret(identity.nationalId, ctx.config.ENCRYPTION_KEY) : null;

  const unavailable = (detail: string) => new SigningError(503, "identity_provider_unavailable", detail);

  /** sensitiveData / accessControl: nothing but the identity login until the browser holds a valid identity. */
  function identityMissing(req: Request, sc: SigningContext): SigningError | null {
    if (!requiresIdentity(sc.caseFile, sc.signer) || sessions.identityOf(req, sc.signer.id)) return null;
    if (Object.keys(identityStartUrls(sc)).length === 0) {
      return new SigningError(409, "identity_unavailable", "These documents require identity validation, but no secure method (eID) is available for you; contact the sender");
    }
    return new SigningError(
      403,
      "identity_required",
      `Validate your identity first: POST ${pageUrl(sc)}/secure/{method}/start with {"purpose":"identify"} (methods: ${Object.keys(identityStartUrls(sc)).join(", ")})`,
    );
  }

  function requireDocumentsToSign(sc: SigningContext): void {
    if (documentsToSign(sc).length === 0) {
      throw new SigningError(403, "no_document_to_sign", `No document in this case file is for the role "${sc.signer.role}": there is nothing for you to sign`);
    }
  }

  function answerSigned(req: Request, res: Response, sc: SigningContext, signerId: number): void {
    const redirectUrl = redirectTarget(sc.signer.successUrl);
    ctx.logger.info("signer signed", { requestId: requestIdOf(res), signerId, caseFileId: sc.caseFile.id });
    if (!wantsHtml(req)) {
      res.json({ status: "signed", signerId, redirectUrl });
      return;
    }
    if (redirectUrl) return res.redirect(303, redirectUrl);
    const m = signingMessages(pageLanguage(req, res));
    sendMessagePage(res, 200, pageLanguage(req, res), m.page.signedHeading, m.page.thankYou, { href: pageUrl(sc), label: m.page.backToDocuments });
  }

  router.use(signingAssetsRouter());
  router.use(["/sign", "/t"], noStore);
  router.use("/sign", bounded);

  // One address for every login's return, as OpenID providers register exact redirect URIs; the
  // sealed state says whose login it is.
  router.get(SECURE_CALLBACK_PATH, async (req, res) => {
    const query = new URLSearchParams(req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?") + 1) : "");
    const login = sessions.openLogin(query.get("state") ?? undefined);
    const sc = await loadOfSigner(res, login.sid);
    const browserSecret = sessions.finishLogin(req, res, login);
    if (!idp) throw unavailable("No identity provider is configured for secure signing methods");
    const identity = await idp.completeLogin({ method: login.m, state: login.state, returnUrl: callbackUrl, browserSecret, query }).catch((err: unknown) => {
      const known = err instanceof IdentityLoginFailed || err instanceof IdentityProviderUnavailable;
      if (known) ctx.logger.warn("identity login refused", { requestId: requestIdOf(res), signerId: sc.signer.id, method: login.m, error: err.message });
      if (err instanceof IdentityLoginFailed) throw new SigningError(400, err.reason === "cancelled" ? "login_cancelled" : "login_failed", err.message);
      if (err instanceof IdentityProviderUnavailable) throw unavailable(err.message);
      throw err;
    });
    if (identity.method !== login.m) throw new SigningError(400, "login_failed", "The identity provider answered for another method than the one started");
    const nationalIdEnc = nationalIdToKeep(identity, checkAccessControl(sc.signer, identity));
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
      if (!allowedMethods(fresh).secure.includes(identity.method)) throw new SigningError(400, "method_not_allowed", `Secure method "${identity.method}" is not allowed for this signer`);
    });
    // Signing with an eID proves identity as well: the read-only page of a sensitive case file opens.
    sessions.grantIdentity(res, sc.token, sc.signer.id, identity, nationalIdEnc, verifiedAt.getTime());
    answerSigned(req, res, sc, result.signerId);
  });

  router.get("/sign/:token", async (req, res) => {
    const sc = await load(req, res);
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
    if (view.state === "pending" && req.method === "GET") await recordOpened(ctx.db, sc.signer, sc.caseFile);
    if (wantsHtml(req)) return sendSigningPage(res, view, pageLanguage(req, res), idpOrigins);
    res.json(view);
  });

  router.get("/sign/:token/documents/:documentId", async (req, res, next) => {
    const sc = await load(req, res);
    gate(sc, true);
    const missing = identityMissing(req, sc);
    if (missing) throw missing;
    const id = ZDocumentId.safeParse(req.params.documentId);
    const visible = id.success ? visibleDocuments(sc).find((d) => d.doc.id === id.data) : undefined;
    if (!visible) throw new SigningError(404, "not_found", "Document not found");
    const { doc } = visible;
    res.setHeader("Content-Type", "application/pdf");
    res.setHeader("Content-Disposition", contentDisposition(doc.name));
    ctx.storage
      .read(doc.signedSha256 ?? doc.fileSha256)
      .once("error", (err) => (res.headersSent ? res.destroy(err) : next(err)))
      .pipe(res);
  });

  router.post("/sign/:token/sign", async (req, res) => {
    const sc = await load(req, res);
    gate(sc, false);
    const missing = identityMissing(req, sc);
    if (missing) throw missing;
    const body = ZSignBody.safeParse(bodyOf(req));
    if (!body.success) throw new SigningError(400, "validation_failed", "The signature request is invalid", zodIssues(body.error));
    const { method, value } = body.data;
    if (isSecureMethod(method)) {
      throw new SigningError(
        400,
        "method_not_allowed",
        `"${method}" is a secure method: it is only accepted through the identity provider (POST ${pageUrl(sc)}/secure/${method}/start)`,
        [{ path: "method", code: "secure_method_needs_identity_provider", message: `"${method}" needs the identity provider` }],
      );
    }
    const allowed = allowedMethods(sc.signer);
    const insecure = allowed.insecure.find((m) => m === method);
    if (!insecure) {
      const message = `Signing method "${method}" is not allowed for this signer; allowed: ${describeAllowed(allowed)}`;
      throw new SigningError(400, "method_not_allowed", message, [{ path: "method", code: "method_not_allowed", message }]);
    }
    requireDocumentsToSign(sc);
    const parsed = parseSignatureValue(insecure, value);
    // Images are stored before the transaction; if it then refuses, the orphan is one content-addressed file.
    const stored = parsed.kind === "text" ? parsed.name : await ctx.storage.put(parsed.bytes);
    const signature = { method: insecure, value: stored, imageUpload: insecure === "image", evidence: requestEvidence(req), identity: validatedIdentity(req, sc) };
    const result = await recordSignature(ctx.db, refOf(sc), signature, (fresh) => {
      if (!allowedMethods(fresh).insecure.includes(insecure)) throw new SigningError(400, "method_not_allowed", `Signing method "${insecure}" is not allowed for this signer`);
    });
    answerSigned(req, res, sc, result.signerId);
  });

  router.post("/sign/:token/reject", async (req, res) => {
    const sc = await load(req, res);
    gate(sc, false);
    const missing = identityMissing(req, sc);
    if (missing) throw missing;
    const body = ZRejectBody.safeParse(bodyOf(req));
    if (!body.success) throw new SigningError(400, "validation_failed", "The rejection is invalid", zodIssues(body.error));
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
  });

  router.post("/sign/:token/secure/:method/start", async (req, res) => {
    const sc = await load(req, res);
    const body = ZStartBody.safeParse(bodyOf(req));
    if (!body.success) throw new SigningError(400, "validation_failed", "The login request is invalid", zodIssues(body.error));
    const purpose: LoginPurpose = body.data.purpose;
    gate(sc, purpose === "identify");
    if (!idp) throw unavailable("No identity provider is configured for secure signing methods");
    const method = ZSecureSigningMethod.safeParse(req.params.method);
    const allowed = allowedMethods(sc.signer);
    if (!method.success || !allowed.secure.includes(method.data)) {
      throw new SigningError(400, "method_not_allowed", `Secure method "${String(req.params.method)}" is not allowed for this signer; allowed: ${describeAllowed(allowed)}`);
    }
    if (!idp.supports(method.data)) throw unavailable(`The identity provider is not set up for "${method.data}"`);
    if (purpose === "sign") requireDocumentsToSign(sc);
    const { state, browserSecret } = sessions.startLogin(res, sc.signer.id, method.data, purpose);
    const url = await idp.startLogin({ method: method.data, state, returnUrl: callbackUrl, browserSecret, language: pageLanguage(req, res) }).catch((err: unknown) => {
      if (err instanceof IdentityProviderUnavailable) throw unavailable(err.message);
      throw err;
    });
    const redirectUrl = url.toString();
    if (wantsHtml(req)) return res.redirect(303, redirectUrl);
    res.json({ redirectUrl });
  });

  router.get("/t/:file", trackingPixelRoute(ctx));
  router.use(signingErrorHandler(ctx.logger));
  router.use(signingFailurePage(ctx.logger));
  return router;
}
