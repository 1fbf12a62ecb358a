import { Router } from "express";
import { z } from "zod";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";

export const ZId = z.coerce.number().int().positive().max(2_147_483_647);

/** Another customer's case file answers exactly like a missing one: existence is not disclosed. */
async function ownedCaseFile(ctx: GatewayContext, customerId: number, rawId: unknown) {
  const id = ZId.safeParse(rawId);
  if (!id.success) throw new AppError("not_found", "Case file not found");
  const caseFile = await ctx.db.caseFile.findFirst({
    where: { id: id.data, customerId },
    include: { signers: { orderBy: { id: "asc" } }, documents: { orderBy: { id: "asc" } }, ccRecipients: { orderBy: { id: "asc" } } },
  });
  if (!caseFile) throw new AppError("not_found", "Case file not found");
  return caseFile;
}

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export function caseFileReadRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx.config, "x-auth-token");

  router.get("/send/api/v1/casefiles/:id", auth, async (req, res) => {
    const cf = await ownedCaseFile(ctx, principalOf(res).customerId, req.params.id);
    res.json({
      id: cf.id,
      title: cf.title,
      status: cf.status,
      reference: cf.reference,
      sendAt: unix(cf.sendAt),
      expireAt: unix(cf.expireAt),
      signers: cf.signers.map((s) => ({ id: s.id, name: s.name, role: s.role, signOrder: s.signOrder, status: s.status })),
      documents: cf.documents.map((d) => ({ id: d.id, title: d.title, name: d.name, signable: d.signable })),
      ccRecipients: cf.ccRecipients.map((c) => ({ id: c.id, name: c.name, email: c.email })),
      createdAt: cf.createdAt.toISOString(),
      updatedAt: cf.updatedAt.toISOString(),
    });
  });

  router.get("/send/api/v1/casefiles/:id/documents/:documentId/file", auth, async (req, res) => {
    const cf = await ownedCaseFile(ctx, principalOf(res).customerId, req.params.id);
    const documentId = ZId.safeParse(req.params.documentId);
    const doc = documentId.success ? cf.documents.find((d) => d.id === documentId.data) : undefined;
    if (!doc) throw new AppError("not_found", "Document not found");
    const sha = doc.signedSha256 ?? doc.fileSha256;
    res.setHeader("Content-Type", "application/pdf");
    res.setHeader("Content-Disposition", `inline; filename="${doc.name.replace(/["\\\r\n]/g, "_")}"`);
    ctx.storage.read(sha).on("error", (err) => res.destroy(err)).pipe(res);
  });
  return router;
}
