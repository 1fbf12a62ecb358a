import { Router, type Request, type Response } from "express";
import type { LogEntry } from "@esign/db";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { PENNEO_API_VERSIONS } from "../casefiles/casefile-contracts";
import { caseFileNotFound } from "../casefiles/owned-casefile";
import { listWindow, type ListKeys } from "../contract/list-query";
import { listPage } from "../contract/list-page";
import { serve } from "../contract/serve";
import { logRoutes } from "./log-contracts";
import type { LogEntryView } from "./log-schemas";

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** One entry as sdk-net and sdk-php read it (eventType an integer, eventTime unix seconds), unset parts left out. */
export function presentLogEntry(e: LogEntry): LogEntryView {
  const detail = typeof e.detail === "object" && e.detail !== null && !Array.isArray(e.detail) ? e.detail : undefined;
  return {
    sdkClassName: "LogEntry",
    id: e.id,
    eventType: e.code,
    eventTime: unix(e.occurredAt),
    event: e.event,
    actor: e.actor as LogEntryView["actor"],
    ...(e.signerId !== null ? { signerId: e.signerId } : {}),
    ...(e.userId !== null ? { userId: e.userId } : {}),
    ...(e.ip !== null ? { ip: e.ip } : {}),
    ...(e.userAgent !== null ? { userAgent: e.userAgent } : {}),
    ...(detail ? { detail } : {}),
  };
}

/**
 * `GET casefiles/{id}/log` (the case file's whole log, its signers' entries included) and
 * `GET casefiles/{id}/signers/{signerId}/log` (the signer's: what sdk-net's Signer.GetEventLog and
 * sdk-php's getEventLog read), under /api/v1 and /api/v3. Bare arrays, oldest first.
 */
export function logRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);

  // An unpaged read (what the SDKs send) gets the oldest LIST_MAX_PAGE_SIZE entries and a Link to the
  // next page; a signer's log is a few dozen entries (a reminder a day for a year is still within it).
  const page = async (req: Request, res: Response, where: { customerId: number; caseFileId: number; signerId?: number }, query: ListKeys<"id">) => {
    const window = listWindow(query, [{ field: "id", direction: "asc" }], ctx.config.LIST_MAX_PAGE_SIZE);
    const rows = await ctx.db.logEntry.findMany({ where, orderBy: { id: window.sort[0]?.direction ?? "asc" }, skip: window.offset, take: window.limit + 1 });
    return listPage(req, res, ctx.config.PUBLIC_BASE_URL, window, rows).map(presentLogEntry);
  };

  for (const v of PENNEO_API_VERSIONS) {
    const routes = logRoutes(v);

    serve(router, routes.caseFileLog, auth, async ({ params, query }, req, res) => {
      const { customerId } = principalOf(res);
      if (!(await ctx.db.caseFile.findFirst({ where: { id: params.id, customerId }, select: { id: true } }))) throw caseFileNotFound();
      res.json(await page(req, res, { customerId, caseFileId: params.id }, query));
    });

    serve(router, routes.signerLog, auth, async ({ params, query }, req, res) => {
      const { customerId } = principalOf(res);
      const signer = await ctx.db.signer.findFirst({ where: { id: params.signerId, caseFileId: params.id, caseFile: { customerId } }, select: { id: true } });
      if (!signer) throw new AppError("not_found", "Signer not found");
      res.json(await page(req, res, { customerId, caseFileId: params.id, signerId: params.signerId }, query));
    });
  }
  return router;
}
