import { Router, type Request } from "express";
import type { z } from "zod";
import { resolveLanguage, type TLanguage } from "@esign/i18n";
import { escapeHtml, sendHtml, sendMessagePage } from "../html/html-page";
import { IDP_SIMULATOR_PATH, type IdentityProviderSimulator } from "./idp-simulator";
import { SIMULATOR_MESSAGES } from "./simulator-messages";
import { ZAuthorize, ZDecision } from "./simulator-schemas";
import { developmentRoutes } from "./simulator-contracts";
import { serve } from "../http/serve-route";

function parse<S extends z.ZodType>(schema: S, input: unknown, sim: IdentityProviderSimulator): z.output<S> | null {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return null;
  const data = parsed.data as { redirect_uri: string };
  return sim.allowsRedirect(data.redirect_uri) ? parsed.data : null;
}

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

  serve(router, routes.idpSimulatorConsent, (req, res) => {
    const lang = languageOf(fieldsOf(req));
    const m = SIMULATOR_MESSAGES[lang];
    const login = parse(ZAuthorize, fieldsOf(req), sim);
    if (!login) return sendMessagePage(res, 400, lang, m.banner, m.malformed);
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

  serve(router, routes.idpSimulatorDecision, (req, res) => {
    const answer = parse(ZDecision, fieldsOf(req), sim);
    if (!answer) {
      const lang = languageOf(fieldsOf(req));
      return sendMessagePage(res, 400, lang, SIMULATOR_MESSAGES[lang].banner, SIMULATOR_MESSAGES[lang].malformed);
    }
    const back = new URL(answer.redirect_uri);
    back.searchParams.set("state", answer.state);
    if (answer.decision === "approve") back.searchParams.set("code", sim.issueCode(answer.method, answer.state, answer.nationalId));
    else back.searchParams.set("error", "access_denied");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Referrer-Policy", "no-referrer");
    res.redirect(303, back.toString());
  });
  return router;
}
