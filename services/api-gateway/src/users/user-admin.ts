import type { User } from "@esign/db";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import { roleOf, type Viewer } from "../auth/viewer";
import type { UserView } from "./user-schemas";
import { lockCustomerAdmins } from "./admin-lock.sql";

export const presentUser = (u: User): UserView => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: roleOf(u.isAdmin),
  createdAt: u.createdAt.toISOString(),
  disabledAt: u.disabledAt ? u.disabledAt.toISOString() : null,
});

/** An admin: every user of the customer; a member: only themselves. */
export async function listUsers(ctx: GatewayContext, viewer: Viewer): Promise<User[]> {
  return ctx.db.user.findMany({
    where: { customerId: viewer.customerId, ...(viewer.role === "member" ? { id: viewer.userId } : {}) },
    orderBy: { id: "asc" },
  });
}

export interface UserChange {
  name?: string;
  role?: "admin" | "member";
  disabled?: boolean;
}

/**
 * Changes a user of the customer. The customer keeps at least one active administrator: the check
 * and the change are one transaction under the customer's admin lock (admin-lock.sql.ts), so two
 * admins demoting each other at once cannot both succeed. Disabling ends the user's sessions.
 */
export async function changeUser(ctx: GatewayContext, customerId: number, id: number, change: UserChange): Promise<User> {
  return ctx.db.$transaction(async (tx) => {
    await lockCustomerAdmins(tx, customerId);
    const admins = await tx.user.count({ where: { customerId, isAdmin: true, disabledAt: null } });
    const user = await tx.user.findFirst({ where: { id, customerId } });
    if (!user) throw new AppError("not_found", "No such user of the customer");
    const losesAdmin = (change.role === "member" || change.disabled === true) && user.isAdmin && !user.disabledAt;
    if (losesAdmin && admins <= 1) {
      throw new AppError("conflict", "The customer's last administrator cannot be demoted or disabled: make another user an administrator first");
    }
    const disabledAt = change.disabled === undefined ? undefined : change.disabled ? (user.disabledAt ?? new Date()) : null;
    const updated = await tx.user.update({
      where: { id },
      data: {
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.role !== undefined ? { isAdmin: change.role === "admin" } : {}),
        ...(disabledAt !== undefined ? { disabledAt } : {}),
      },
    });
    if (change.disabled === true) await tx.userSession.deleteMany({ where: { userId: id } });
    return updated;
  });
}
