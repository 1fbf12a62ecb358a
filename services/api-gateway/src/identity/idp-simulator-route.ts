import { Router, type NextFunction, type Request, type Response } from "express";
import { AppError } from "@esign/errors";
import { resolveLanguage, type TLanguage } from "@esign/i18n";
import { escapeHtml, sendHtml, sendMessagePage } from "../html/html-page";
import { serve } from "../contract/serve";
import { IDP_SIMULATOR_PATH, type IdentityProviderSimulator } from "./idp-simulator";
import { SIMULATOR_MESSAGES } from "./simulator-messages";
import { developmentRoutes } from "./simulator-contracts";

const fieldsOf = (req: Request): unknown => (req.method === "GET" ? req.query : req.body);

/** OpenID Connect's ui_locales: space-separated tags, the first one of the eight wins. */
function languageOf(input: unknown): TLanguage {
  const raw = typeof input === "object" && input !== null ? (input as Record<string, unknown>).ui_locales : undefined;
  const tags = typeof raw === "string" ? raw.split(/\s+/).map((t) => t.split("-")[0]) : [];
  return resolveLanguage(tags, "en");
}

/**
 * The simulator's own pages: a consent screen that says loudly that it is not a real eID, and the
 * approve / cancel answer that sends the browser back to the gateway's callback like a provider would.
 */
export function identityProviderSimulatorRouter(sim: IdentityProviderSimulator): Router {
  const router = Router();
  const routes = developmentRoutes();

  // A malformed login request (the contract's validation) or a redirect the simulator does not
  // serve: the same page, in the language the request asked for.
  const malformed = (req: Request, res: Response) => {
    const lang = languageOf(fieldsOf(req));
    sendMessagePage(res, 400, lang, SIMULATOR_MESSAGES[lang].banner, SIMULATOR_MESSAGES[lang].malformed);
  };

  serve(router, routes.idpSimulatorConsent, ({ query: login }, req, res) => {
    const lang = languageOf(login);
    const m = SIMULATOR_MESSAGES[lang];
    if (!sim.allowsRedirect(login.redirect_uri)) return malformed(req, res);
    const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
    sendHtml(res, 200, {
      lang,
      title: m.banner,
      body:
        `<main id="main"><p class="banner">${escapeHtml(m.banner)}</p>` +
        `<h1>${escapeHtml(m.heading(login.method))}</h1>` +
        `<p class="muted">${escapeHtml(m.developmentOnly)}</p>` +
        `<form method="post" action="${IDP_SIMULATOR_PATH}">` +
        hidden("method", login.method) +
        hidden("state", login.state) +
        hidden("redirect_uri", login.redirect_uri) +
        hidden("ui_locales", lang) +
        `<label for="national-id">${escapeHtml(m.nationalIdLabel)}</label><input id="national-id" type="text" name="nationalId" maxlength="32" autocomplete="off">` +
        `<button name="decision" value="approve">${escapeHtml(m.approve)}</button> <button name="decision" value="cancel" class="secondary">${escapeHtml(m.cancel)}</button></form></main>`,
    });
  });

  serve(router, routes.idpSimulatorDecision, ({ body: answer }, req, res) => {
    if (!sim.allowsRedirect(answer.redirect_uri)) return malformed(req, res);
    const back = new URL(answer.redirect_uri);
    back.searchParams.set("state", answer.state);
    if (answer.decision === "approve") back.searchParams.set("code", sim.issueCode(answer.method, answer.state, answer.nationalId));
    else back.searchParams.set("error", "access_denied");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Referrer-Policy", "no-referrer");
    res.redirect(303, back.toString());
  });
  router.use(IDP_SIMULATOR_PATH, (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (err instanceof AppError && err.code === "validation_failed") return malformed(req, res);
    next(err);
  });
  return router;
}
