import { API_AUTH, errors, json, PUBLIC, route, SESSION_AUTH, TAGS } from "../contract/route";
import {
  ZAcceptInvitation,
  ZInvitation,
  ZInvitationToken,
  ZInvitationView,
  ZInvite,
  ZSession,
  ZSignIn,
  ZUser,
  ZUserChange,
  ZUserList,
  ZUserParams,
} from "./user-schemas";

export const SESSION_PATH = "/api/v3/session";
const AUTH_401 = "Missing or invalid credentials";
const ADMIN_403 = "A member (only administrators may), or a session request without X-CSRF-Token";
const jsonBody = <S>(schema: S) => ({ schema, mediaTypes: ["application/json"] as const });

/** Sign-in, the customer's users and invitations (users-router.ts serves them). */
export function userRoutes() {
  const base = { tags: [TAGS.users] } as const;
  return {
    signIn: route({
      ...base,
      security: PUBLIC,
      method: "post",
      path: SESSION_PATH,
      operationId: "signIn",
      summary: "Sign in to the web application",
      description:
        "Sets the cookie esign_session (HttpOnly, SameSite=Strict, Secure behind https). A wrong password and an unknown email answer the same 401. " +
        "Failures are limited per address and per email from one address (SIGNIN_* settings): 429 with Retry-After.",
      request: { body: jsonBody(ZSignIn) },
      responses: {
        200: { description: "Signed in", content: json(ZSession) },
        ...errors({ 400: "Invalid fields (each named)", 401: "Wrong email or password", 429: "Too many failed sign-ins" }),
      },
    }),
    getSession: route({
      ...base,
      security: SESSION_AUTH,
      method: "get",
      path: SESSION_PATH,
      operationId: "getSession",
      summary: "The current session",
      responses: { 200: { description: "The session", content: json(ZSession) }, ...errors({ 401: "Not signed in, or the session ended" }) },
    }),
    signOut: route({
      ...base,
      security: SESSION_AUTH,
      method: "delete",
      path: SESSION_PATH,
      operationId: "signOut",
      summary: "Sign out",
      description: "Ends the session and clears the cookie.",
      responses: { 204: { description: "Signed out" }, ...errors({ 401: "Not signed in", 403: "Missing or wrong X-CSRF-Token" }) },
    }),
    listUsers: route({
      ...base,
      security: API_AUTH,
      method: "get",
      path: "/api/v3/users",
      operationId: "listUsers",
      summary: "The customer's users",
      description: "An administrator sees every user of the customer, a member only themselves.",
      responses: { 200: { description: "The users", content: json(ZUserList) }, ...errors({ 401: AUTH_401 }) },
    }),
    updateUser: route({
      ...base,
      security: API_AUTH,
      method: "patch",
      path: "/api/v3/users/{id}",
      operationId: "updateUser",
      summary: "Rename, change the role of, disable or enable a user (administrators)",
      description: "Disabling ends the user's sessions and refuses their API tokens. The last active administrator cannot be demoted or disabled (409).",
      request: { params: ZUserParams, body: jsonBody(ZUserChange) },
      responses: {
        200: { description: "The user", content: json(ZUser) },
        ...errors({ 400: "Invalid fields (each named)", 401: AUTH_401, 403: ADMIN_403, 404: "No such user of the customer", 409: "The last administrator" }),
      },
    }),
    inviteUser: route({
      ...base,
      security: API_AUTH,
      method: "post",
      path: "/api/v3/users/invitations",
      operationId: "inviteUser",
      summary: "Invite a user by mail (administrators)",
      description:
        "Mails a link to PUBLIC_BASE_URL/app/invite/<token>, in the customer's language, good for 7 days. An email that already has a user of the customer is refused (409).",
      request: { body: jsonBody(ZInvite) },
      responses: {
        201: { description: "The invitation", content: json(ZInvitation) },
        ...errors({ 400: "Invalid fields (each named)", 401: AUTH_401, 403: ADMIN_403, 409: "The email already has a user" }),
      },
    }),
    getInvitation: route({
      ...base,
      security: PUBLIC,
      method: "get",
      path: "/api/v3/invitations/{token}",
      operationId: "getInvitation",
      summary: "An open invitation, by the token of its link",
      request: { params: ZInvitationToken },
      responses: { 200: { description: "The invitation", content: json(ZInvitationView) }, ...errors({ 404: "Unknown, accepted or expired" }) },
    }),
    acceptInvitation: route({
      ...base,
      security: PUBLIC,
      method: "post",
      path: "/api/v3/invitations/{token}/accept",
      operationId: "acceptInvitation",
      summary: "Accept an invitation: the user is made and signed in",
      description: "Answers like POST /api/v3/session and sets its cookie.",
      request: { params: ZInvitationToken, body: jsonBody(ZAcceptInvitation) },
      responses: {
        200: { description: "Signed in as the new user", content: json(ZSession) },
        ...errors({ 400: "Invalid fields (each named)", 404: "Unknown, accepted or expired", 409: "The email already has a user with a password" }),
      },
    }),
  };
}
