import { AppError } from "@esign/errors";
import { encryptSecret } from "@esign/db";
import type { NextFunction, Request, Response } from "express";
import type { GatewayContext } from "../context";
import { abuseLimits, addressOf } from "../http/abuse-limits";
import { requestIdOf } from "../http/request-context";
import { sendMessagePage } from "../html/html-page";
import type { IdentityLogin, IdentityProvider } from "../identity/identity-provider";
import { IdentitySessions, requiresIdentity, SECURE_CALLBACK_PATH, sessionKeys, type IdentityCookie } from "./identity-session";
import { signerLanguage, signingMessages } from "./messages/catalog";
import { hasPageContext, pageLanguage, setPageContext, wantsHtml } from "./negotiate";
import { blockerFor } from "./signer-state";
import type { SignerRef, VerifiedIdentity } from "./signer-actions";
import { loadSigningContext, loadSigningContextOfSigner, signingPath, type SigningContext } from "./signing-link";
import { allowedMethods } from "./signing-methods";
import { documentsToSign } from "./signing-view";

/** successUrl / failUrl are client input: only http(s) addresses are ever used as redirects. */
export function redirectTarget(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/**
 * What every signing route shares: resolving the link (an unknown one counts against the address),
 * the gate of the signer's state, the identity a browser holds, and the answers after a signature.
 * Each route is a module of its own under routes/ and takes this kit.
 */
export function createSigningKit(ctx: GatewayContext, idp: IdentityProvider | null) {
  const base = ctx.config.PUBLIC_BASE_URL;
  const sessions = new IdentitySessions(sessionKeys(ctx.config.ENCRYPTION_KEY), base.startsWith("https:"));
  const idpOrigins = idp ? [idp.origin] : [];
  const pageUrl = (sc: SigningContext) => `${base}${signingPath(sc.token)}`;
  /** The signer's secure methods this gateway's identity provider can serve. */
  const secureMethods = (sc: SigningContext) => (idp ? allowedMethods(sc.signer).secure.filter((m) => idp.supports(m)) : []);
  const refOf = (sc: SigningContext): SignerRef => ({ signerId: sc.signer.id, caseFileId: sc.caseFile.id });

  const callbackUrl = `${base}${SECURE_CALLBACK_PATH}`;
  const limits = abuseLimits(ctx);
  /** Resolves the link; an unknown one counts against the address (link guessing, see below). */
  const load = async (token: string, res: Response) => {
    const sc = await loadSigningContext(ctx.db, token);
    // From here on, every page and refusal is in the signer's language.
    setPageContext(res, signerLanguage(sc.signer, sc.caseFile), pageUrl(sc));
    return sc;
  };

  /**
   * A link the request could not resolve (unknown, or not even shaped like a token: the contract's
   * 404) counts against the address, before the refusal is answered. A 404 for something else (a
   * document this signer may not see) does not: the link itself was good.
   */
  async function countUnknownLinks(err: unknown, req: Request, res: Response, next: NextFunction): Promise<void> {
    if (err instanceof AppError && err.code === "not_found" && !hasPageContext(res)) await limits.signingFailuresByAddress.recordFailure(addressOf(req));
    next(err);
  }

  /** The signer an identity login was for; the pages that follow are in their language. */
  const loadOfSigner = async (res: Response, signerId: number) => {
    const sc = await loadSigningContextOfSigner(ctx.db, signerId, ctx.config.ENCRYPTION_KEYRING);
    setPageContext(res, signerLanguage(sc.signer, sc.caseFile), pageUrl(sc));
    return sc;
  };

  /** Per client address: a bounded rate, and nothing more from an address that guessed too many unknown links. */
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

  const unavailable = (detail: string) => new AppError("identity_provider_unavailable", detail);

  /** sensitiveData / accessControl: nothing but the identity login until the browser holds a valid identity. */
  function identityMissing(req: Request, sc: SigningContext): AppError | null {
    if (!requiresIdentity(sc.caseFile, sc.signer) || sessions.identityOf(req, sc.signer.id)) return null;
    if (Object.keys(identityStartUrls(sc)).length === 0) {
      return new AppError(
        "identity_unavailable",
        "These documents require identity validation, but no secure method (eID) is available for you; contact the sender",
      );
    }
    return new AppError(
      "identity_required",
      `Validate your identity first: POST ${pageUrl(sc)}/secure/{method}/start with {"purpose":"identify"} (methods: ${Object.keys(identityStartUrls(sc)).join(", ")})`,
    );
  }

  function requireDocumentsToSign(sc: SigningContext): void {
    if (documentsToSign(sc).length === 0) {
      throw new AppError("no_document_to_sign", `No document in this case file is for the role "${sc.signer.role}": there is nothing for you to sign`);
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

  return {
    ctx,
    base,
    sessions,
    idp,
    idpOrigins,
    pageUrl,
    secureMethods,
    refOf,
    callbackUrl,
    limits,
    load,
    loadOfSigner,
    bounded,
    countUnknownLinks,
    gate,
    identityStartUrls,
    validatedIdentity,
    nationalIdToKeep,
    unavailable,
    identityMissing,
    requireDocumentsToSign,
    answerSigned,
  };
}

export type SigningKit = ReturnType<typeof createSigningKit>;
