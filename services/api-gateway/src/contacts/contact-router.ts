import { Router } from "express";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { PENNEO_API_VERSIONS } from "../casefiles/casefile-contracts";
import { containsPattern, listPage } from "../contract/list-page";
import { listWindow } from "../contract/list-query";
import { serve } from "../contract/serve";
import { contactRoutes } from "./contact-contracts";
import type { ContactView } from "./contact-schemas";
import { type ContactRecord, createContact, deleteContact, getContact, listContacts, updateContact } from "./contact-store";

const unix = (d: Date): number => Math.floor(d.getTime() / 1000);

/** A contact as sdk-net reads it (`{id, name, email, onBehalfOf}`), with its class name and times. */
const presentContact = (c: ContactRecord): ContactView => ({
  sdkClassName: "Contact",
  id: c.id,
  name: c.name,
  email: c.email,
  onBehalfOf: c.onBehalfOf,
  created: unix(c.createdAt),
  updated: unix(c.updatedAt),
});

/**
 * Penneo's contacts at its paths (`/api/{v1,v3}/contacts...`), sdk-net's Contact. Another
 * customer's contact answers 404 exactly like a missing one.
 */
export function contactRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);
  const maxPage = ctx.config.LIST_MAX_PAGE_SIZE;

  for (const v of PENNEO_API_VERSIONS) {
    const routes = contactRoutes(v);

    serve(router, routes.listContacts, auth, async ({ query }, req, res) => {
      const window = listWindow(query, [{ field: "id", direction: "asc" }], maxPage);
      const rows = await listContacts(ctx, {
        customerId: principalOf(res).customerId,
        ...(query.name !== undefined ? { nameContains: containsPattern(query.name) } : {}),
        ...(query.email !== undefined ? { email: query.email } : {}),
        window,
      });
      res.json(listPage(req, res, ctx.config.PUBLIC_BASE_URL, window, rows).map(presentContact));
    });

    serve(router, routes.createContact, auth, async ({ body }, _req, res) => {
      const contact = await createContact(ctx, principalOf(res).customerId, { name: body.name, email: body.email, onBehalfOf: body.onBehalfOf ?? null });
      res.status(201).json(presentContact(contact));
    });

    serve(router, routes.getContact, auth, async ({ params }, _req, res) => {
      res.json(presentContact(await getContact(ctx, principalOf(res).customerId, params.id)));
    });

    serve(router, routes.updateContact, auth, async ({ params, body }, _req, res) => {
      const contact = await updateContact(ctx, principalOf(res).customerId, params.id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.onBehalfOf !== undefined ? { onBehalfOf: body.onBehalfOf } : {}),
      });
      res.json(presentContact(contact));
    });

    serve(router, routes.deleteContact, auth, async ({ params }, _req, res) => {
      await deleteContact(ctx, principalOf(res).customerId, params.id);
      res.status(204).end();
    });
  }
  return router;
}
