import { Router, type Response } from "express";
import type { Document } from "@esign/db";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { userAudit } from "../auth/user-audit";
import { contentDisposition } from "../http/content-disposition";
import { requestIdOf } from "../http/request-context";
import { caseFileNotFound, ownedCaseFile, ownedDocument } from "./owned-casefile";
import { deleteCaseFile } from "./delete-casefile";
import { presentCaseFile, presentDocument, presentSigner, presentSigningRequest } from "./present-casefile";
import { PENNEO_API_VERSIONS, penneoApiRoutes } from "./casefile-contracts";
import { serve } from "../contract/serve";

const signerNotFound = () => new AppError("not_found", "Signer not found");

/**
 * The document's bytes: the sealed copy once finalized, else the upload (`?signed=false`: always
 * the upload, as sdk-php's `getContent(false)` asks).
 */
function contentAddress(doc: Document, query: { signed?: "true" | "false" }): string {
  return query.signed === "false" ? doc.fileSha256 : (doc.signedSha256 ?? doc.fileSha256);
}

/**
 * The read and manage calls Penneo's published clients make after creation, at their paths:
 * `/api/{v1,v3}/casefiles/{id}` (read, delete), its documents and signers, and a document's content.
 * Lists are plain JSON arrays (sdk-php's linked-entity reads accept nothing else). Tenancy as
 * everywhere: another customer's id answers 404.
 */
export function penneoApiRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);

  for (const v of PENNEO_API_VERSIONS) {
    const routes = penneoApiRoutes(v);

    // Who the credentials speak for: what api-utils' WSSE samples and sdk-net's Query.GetUser call first.
    serve(router, routes.getUser, auth, async (_input, _req, res) => {
      const { userId, customerId } = principalOf(res);
      const user = await ctx.db.user.findFirstOrThrow({ where: { id: userId, customerId } });
      res.json({ id: user.id, fullName: user.name, email: user.email, customerId: user.customerId, isAdmin: user.isAdmin });
    });

    serve(router, routes.getCaseFile, auth, async ({ params }, _req, res) => {
      res.json(presentCaseFile(await ownedCaseFile(ctx, principalOf(res).customerId, params.id)));
    });

    // Penneo's Postman collection expects 200 here; the answer is the case file, now in status 3.
    serve(router, routes.deleteCaseFile, auth, async ({ params: { id } }, req, res) => {
      const { customerId } = principalOf(res);
      if (!(await deleteCaseFile(ctx.db, customerId, id, userAudit(req, res)))) throw caseFileNotFound();
      ctx.logger.info("case file deleted", { requestId: requestIdOf(res), caseFileId: id, customerId });
      res.json(presentCaseFile(await ownedCaseFile(ctx, customerId, id)));
    });

    serve(router, routes.listDocuments, auth, async ({ params }, _req, res) => {
      const cf = await ownedCaseFile(ctx, principalOf(res).customerId, params.id);
      res.json(cf.documents.map((d) => presentDocument(d, cf)));
    });

    serve(router, routes.listSigners, auth, async ({ params }, _req, res) => {
      res.json((await ownedCaseFile(ctx, principalOf(res).customerId, params.id)).signers.map(presentSigner));
    });

    const signerOf = async (params: { id: number; signerId: number }, res: Response) => {
      const cf = await ownedCaseFile(ctx, principalOf(res).customerId, params.id);
      const signer = cf.signers.find((s) => s.id === params.signerId);
      if (!signer) throw signerNotFound();
      return signer;
    };

    serve(router, routes.getSigner, auth, async ({ params }, _req, res) => {
      res.json(presentSigner(await signerOf(params, res)));
    });

    // sdk-php's Signer::getSigningRequest() and sdk-net's GetSigningRequest(): a list of one.
    serve(router, routes.listSigningRequests, auth, async ({ params }, _req, res) => {
      res.json([presentSigningRequest(await signerOf(params, res))]);
    });

    serve(router, routes.getDocument, auth, async ({ params }, _req, res) => {
      const { document, caseFile } = await ownedDocument(ctx, principalOf(res).customerId, params.documentId);
      res.json(presentDocument(document, caseFile));
    });

    // The Postman collection and sdk-php: the PDF itself, or with `Accept: application/json` the
    // PDF as one base64 string ("you receive the signed document as a base64 encoded PDF").
    serve(router, routes.getDocumentContent, auth, async ({ params, query }, req, res) => {
      const { document } = await ownedDocument(ctx, principalOf(res).customerId, params.documentId);
      const sha = contentAddress(document, query);
      if (req.accepts(["application/pdf", "application/json"]) === "application/json") {
        res.json((await ctx.storage.readAll(sha)).toString("base64"));
        return;
      }
      res.setHeader("Content-Type", "application/pdf");
      res.setHeader("Content-Disposition", contentDisposition(document.name));
      ctx.storage
        .read(sha)
        .on("error", (err) => res.destroy(err))
        .pipe(res);
    });

    // sdk-net's Document.GetPdfAsync(): a JSON array holding the PDF as one base64 string.
    serve(router, routes.getDocumentPdf, auth, async ({ params, query }, _req, res) => {
      const { document } = await ownedDocument(ctx, principalOf(res).customerId, params.documentId);
      res.json([(await ctx.storage.readAll(contentAddress(document, query))).toString("base64")]);
    });
  }
  return router;
}
