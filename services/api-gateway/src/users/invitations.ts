import { randomBytes } from "node:crypto";
import { hashPassword } from "@esign/accounts";
import { encryptSecret, Prisma, sha256Hex } from "@esign/db";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import type { Viewer } from "../auth/viewer";

/*
 * Invitations by mail. The link's token is 32 random bytes; the row keeps its sha256 (what the public
 * routes look it up by) and the token encrypted with ENCRYPTION_KEY, from which the notifier builds
 * the link (job data carries the invitation's id only). Good for 7 days, accepted once.
 */

export const INVITATION_DAYS = 7;
const gone = () => new AppError("not_found", "No open invitation with this link: it is unknown, accepted or expired");

export interface NewInvitation {
  email: string;
  role: "admin" | "member";
  name?: string | undefined;
}

export async function invite(ctx: GatewayContext, admin: Viewer, input: NewInvitation) {
  const taken = await ctx.db.user.count({ where: { customerId: admin.customerId, email: { equals: input.email, mode: "insensitive" } } });
  if (taken > 0)
    throw new AppError("conflict", "A user of the customer already has this email", [{ path: "email", code: "duplicate", message: "already a user" }]);
  const token = randomBytes(32).toString("base64url");
  const invitation = await ctx.db.userInvitation.create({
    data: {
      customerId: admin.customerId,
      email: input.email,
      name: input.name ?? null,
      isAdmin: input.role === "admin",
      tokenHash: sha256Hex(token),
      tokenEnc: encryptSecret(token, ctx.config.ENCRYPTION_KEY),
      invitedById: admin.userId,
      expiresAt: new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000),
    },
  });
  await ctx.enqueueBacklog.enqueue("notifications", "user-invitation", { invitationId: invitation.id }, { jobId: `invitation-${invitation.id}` });
  return invitation;
}

/** The open invitation of a link's token (not accepted, not expired), with its customer's name. */
export async function openInvitation(ctx: GatewayContext, token: string) {
  const invitation = await ctx.db.userInvitation.findFirst({
    where: { tokenHash: sha256Hex(token), acceptedAt: null, expiresAt: { gt: new Date() } },
    include: { customer: { select: { name: true } } },
  });
  if (!invitation) throw gone();
  return invitation;
}

/**
 * Makes the invited user, with their password, and closes the invitation: one transaction, the
 * invitation taken by a conditional update so that two accepts of one link make one user. An email
 * that meanwhile got a user with a password (anywhere: sign-in is by email) is a 409.
 */
export async function acceptInvitation(ctx: GatewayContext, token: string, name: string, password: string): Promise<number> {
  const passwordHash = await hashPassword(password);
  try {
    return await ctx.db.$transaction(async (tx) => {
      const now = new Date();
      const where = { tokenHash: sha256Hex(token), acceptedAt: null, expiresAt: { gt: now } };
      const invitation = await tx.userInvitation.findFirst({ where });
      if (!invitation) throw gone();
      const taken = await tx.userInvitation.updateMany({ where: { id: invitation.id, acceptedAt: null }, data: { acceptedAt: now } });
      if (taken.count === 0) throw gone();
      const user = await tx.user.create({
        data: { customerId: invitation.customerId, email: invitation.email, name, isAdmin: invitation.isAdmin, passwordHash },
      });
      return user.id;
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new AppError("conflict", "This email already signs in as another user", [{ path: "email", code: "duplicate", message: "already a user" }]);
    }
    throw err;
  }
}
