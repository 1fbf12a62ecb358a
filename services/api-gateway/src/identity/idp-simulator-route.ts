import { Router, type Request } from "express";
import { z } from "zod";
import { ZSecureSigningMethod } from "@esign/schema";
import { escapeHtml, sendHtml, sendMessagePage } from "../signing/html";
import { IDP_SIMULATOR_BANNER, IDP_SIMULATOR_PATH, type IdentityProviderSimulator } from "./idp-simulator";

export const ZAuthorize = z.object({
  method: ZSecureSigningMethod,
  state: z.string().min(1).max(4096),
  redirect_uri: z.string().min(1).max(2048),
});

export const ZDecision = ZAuthorize.extend({
  decision: z.enum(["approve", "cancel"]),
  nationalId: z
    .string()
    .trim()
    .max(32)
    .regex(/^[A-Za-z0-9:+-]*$/)
    .optional()
    .transform((v) => (v ? v : null)),
});

function parse<S extends z.ZodType>(schema: S, input: unknown, sim: IdentityProviderSimulator): z.output<S> | null {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return null;
  const data = parsed.data as { redirect_uri: string };
  return sim.allowsRedirect(data.redirect_uri) ? parsed.data : null;
}

function refuse(res: Parameters<typeof sendMessagePage>[0]) {
  sendMessagePage(res, 400, IDP_SIMULATOR_BANNER, "This login request is malformed or names a redirect address the simulator does not serve.");
}

const fieldsOf = (req: Request) => (req.method === "GET" ? req.query : (req.body as unknown));

/**
 * The simulator's own pages: a consent screen that says loudly that it is not a real eID, and the
 * approve / cancel answer that sends the browser back to the gateway's callback like a provider would.
 */
export function identityProviderSimulatorRouter(sim: IdentityProviderSimulator): Router {
  const router = Router();

  router.get(IDP_SIMULATOR_PATH, (req, res) => {
    const login = parse(ZAuthorize, fieldsOf(req), sim);
    if (!login) return refuse(res);
    const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
    sendHtml(res, 200, {
      title: IDP_SIMULATOR_BANNER,
      body:
        `<p class="banner">${escapeHtml(IDP_SIMULATOR_BANNER)}</p>` +
        `<h1>Simulated login: ${escapeHtml(login.method)}</h1>` +
        `<p class="muted">Development only. Approving signs you in as a made-up person; nothing is checked.</p>` +
        `<form method="post" action="${IDP_SIMULATOR_PATH}">` +
        hidden("method", login.method) +
        hidden("state", login.state) +
        hidden("redirect_uri", login.redirect_uri) +
        `<p><label>Simulated national id (optional, e.g. a CPR for accessControl): <input name="nationalId" maxlength="32" autocomplete="off"></label></p>` +
        `<button name="decision" value="approve">Approve (simulated)</button> <button name="decision" value="cancel">Cancel</button></form>`,
    });
  });

  router.post(IDP_SIMULATOR_PATH, (req, res) => {
    const answer = parse(ZDecision, fieldsOf(req), sim);
    if (!answer) return refuse(res);
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
