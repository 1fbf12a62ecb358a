import { API_AUTH, errors, json, route, TAGS } from "../contract/route";
import { ZCompany, ZCompanyChange, ZCompanyProfile } from "./company-schemas";

const AUTH_401 = "Missing or invalid credentials";
const ADMIN_403 = "A member (only administrators may), or a session request without X-CSRF-Token";

/** The customer's company settings (company-router.ts serves them). */
export function companyRoutes() {
  const base = { tags: [TAGS.company], security: API_AUTH } as const;
  return {
    getCompany: route({
      ...base,
      method: "get",
      path: "/api/v3/company",
      operationId: "getCompany",
      summary: "The customer's company settings (administrators)",
      description: "Members read `GET /api/v3/company/profile` instead: the name, language and signing methods.",
      responses: { 200: { description: "The settings", content: json(ZCompany) }, ...errors({ 401: AUTH_401, 403: ADMIN_403 }) },
    }),
    getCompanyProfile: route({
      ...base,
      method: "get",
      path: "/api/v3/company/profile",
      operationId: "getCompanyProfile",
      summary: "The company as every user sees it: name, default language, enabled signing methods",
      responses: { 200: { description: "The profile", content: json(ZCompanyProfile) }, ...errors({ 401: AUTH_401 }) },
    }),
    updateCompany: route({
      ...base,
      method: "patch",
      path: "/api/v3/company",
      operationId: "updateCompany",
      summary: "Change the company settings (administrators)",
      description: "signingMethods must be among those the platform's identity provider offers; another is a 400 naming it.",
      request: { body: { schema: ZCompanyChange, mediaTypes: ["application/json"] as const } },
      responses: {
        200: { description: "The settings", content: json(ZCompany) },
        ...errors({ 400: "Invalid fields (each named)", 401: AUTH_401, 403: ADMIN_403 }),
      },
    }),
    requestEboks: route({
      ...base,
      method: "post",
      path: "/api/v3/company/channels/eboks/request",
      operationId: "requestEboksChannel",
      summary: "Ask the platform operator for the e-Boks channel (administrators)",
      description:
        "The channel's state becomes `requested`; the operator grants it with `pnpm cli customers eboks grant --customer N`. Already granted: nothing changes.",
      responses: { 202: { description: "Requested (or already granted)", content: json(ZCompany) }, ...errors({ 401: AUTH_401, 403: ADMIN_403 }) },
    }),
  };
}
