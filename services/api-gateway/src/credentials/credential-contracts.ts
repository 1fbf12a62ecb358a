import { API_AUTH, errors, json, route, TAGS } from "../contract/route";
import { ZCredentialList, ZCredentialParams, ZIssuedCredential } from "./credential-schemas";

const AUTH_401 = "Missing or invalid credentials";
const ADMINS_ONLY = "The caller is not an admin of its customer";
const NOT_FOUND = "No such credential for this customer";

/** The customer's API credentials: list, make, rotate, revoke (credential-router.ts serves them). */
export function credentialRoutes() {
  const base = { tags: [TAGS.credentials], security: API_AUTH } as const;
  return {
    listCredentials: route({
      ...base,
      method: "get",
      path: "/api/v3/credentials",
      operationId: "listCredentials",
      summary: "The customer's API credentials (no secrets)",
      description: "Customer admins only.",
      responses: { 200: { description: "Every credential, oldest first", content: json(ZCredentialList) }, ...errors({ 401: AUTH_401, 403: ADMINS_ONLY }) },
    }),
    createCredential: route({
      ...base,
      method: "post",
      path: "/api/v3/credentials",
      operationId: "createCredential",
      summary: "Make a credential acting as the caller; its secrets are in this answer only",
      description: "Customer admins only.",
      responses: { 201: { description: "The credential with its secrets", content: json(ZIssuedCredential) }, ...errors({ 401: AUTH_401, 403: ADMINS_ONLY }) },
    }),
    rotateCredential: route({
      ...base,
      method: "post",
      path: "/api/v3/credentials/{id}/rotate",
      operationId: "rotateCredential",
      summary: "New secrets for a credential (client id and API key stay)",
      description:
        "The old secrets stop working at once; access tokens issued before the rotation stop working within CREDENTIAL_CHECK_CACHE_MS (2 s), " +
        "refresh tokens at once. Customer admins only.",
      request: { params: ZCredentialParams },
      responses: {
        200: { description: "The credential with its new secrets", content: json(ZIssuedCredential) },
        ...errors({ 401: AUTH_401, 403: ADMINS_ONLY, 404: NOT_FOUND, 409: "The credential is revoked" }),
      },
    }),
    revokeCredential: route({
      ...base,
      method: "delete",
      path: "/api/v3/credentials/{id}",
      operationId: "revokeCredential",
      summary: "Revoke a credential, with every token issued for it",
      description:
        "Its secrets stop working at once, its access tokens within CREDENTIAL_CHECK_CACHE_MS (2 s), its refresh tokens at once. " +
        "Repeating it changes nothing. Customer admins only.",
      request: { params: ZCredentialParams },
      responses: { 204: { description: "Revoked" }, ...errors({ 401: AUTH_401, 403: ADMINS_ONLY, 404: NOT_FOUND }) },
    }),
  };
}
