import { z } from "zod";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@esign/accounts";
import { component } from "../contract/components";
import { isoTime, ZId } from "../contract/common-schemas";

/*
 * The customer's users, their sign-in and invitations (the web application is a client of these, like
 * any integrator). Emails are compared ignoring case; passwords are 12 to 256 characters.
 */

const ZRole = z
  .enum(["admin", "member"])
  .describe("admin: sees all of the customer's case files and configures the company; member: own case files and shared folders");
const ZEmail = z.email().max(320);
const ZName = z.string().trim().min(1).max(200);
const ZNewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const ZSessionUser = z
  .object({ id: z.int(), email: z.string(), name: z.string(), role: ZRole, customerId: z.int(), customerName: z.string() })
  .describe("The signed-in user");

export const ZSession = component(
  "Session",
  z
    .object({
      user: ZSessionUser,
      csrfToken: z.string().describe("Send it as X-CSRF-Token with every request but GET, HEAD and OPTIONS made with the session cookie"),
    })
    .describe("A web-application session; the cookie esign_session carries it"),
);
export type SessionView = z.input<typeof ZSession>;

export const ZSignIn = component(
  "SignIn",
  z
    .object({ email: ZEmail, password: z.string().min(1).max(PASSWORD_MAX_LENGTH) })
    .strict()
    .describe("Email and password of a user of a customer"),
);

export const ZUser = component(
  "User",
  z
    .object({ id: z.int(), email: z.string(), name: z.string(), role: ZRole, createdAt: isoTime(), disabledAt: isoTime().nullable() })
    .describe("A user of the customer"),
);
export type UserView = z.input<typeof ZUser>;
export const ZUserList = component("UserList", z.array(ZUser).describe("Users, in id order"));

export const ZUserParams = z.object({ id: ZId });

export const ZUserChange = component(
  "UserChange",
  z
    .object({
      name: ZName.optional(),
      role: ZRole.optional(),
      disabled: z.boolean().optional().describe("true: no sign-in, sessions ended, API tokens refused"),
    })
    .strict()
    .refine((b) => Object.keys(b).length > 0, { message: "name, role or disabled is required" })
    .describe("What to change of a user"),
);

export const ZInvite = component(
  "Invite",
  z.object({ email: ZEmail, role: ZRole, name: ZName.optional() }).strict().describe("Who to invite, by mail, as what"),
);

export const ZInvitation = component(
  "Invitation",
  z.object({ id: z.int(), email: z.string(), role: ZRole, expiresAt: isoTime() }).describe("A sent invitation (the link is in the mail only)"),
);

export const ZInvitationToken = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/) });

export const ZInvitationView = component(
  "InvitationView",
  z.object({ email: z.string(), role: ZRole, customerName: z.string(), expiresAt: isoTime() }).describe("An open invitation, as the invitee sees it"),
);

export const ZAcceptInvitation = component(
  "AcceptInvitation",
  z.object({ name: ZName, password: ZNewPassword }).strict().describe("The invitee's name and password (12 to 256 characters)"),
);
