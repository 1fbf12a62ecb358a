import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";

/** The users a folder (already known to be the customer's) is shared with, in id order. */
export async function folderShares(ctx: GatewayContext, folderId: number): Promise<number[]> {
  const rows = await ctx.db.folderShare.findMany({ where: { folderId }, select: { userId: true }, orderBy: { userId: "asc" } });
  return rows.map((r) => r.userId);
}

/** Replaces a folder's shares with `userIds`, each a user of the customer (else a 400 naming it). */
export async function setFolderShares(ctx: GatewayContext, customerId: number, folderId: number, userIds: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(userIds)];
  const known = new Set((await ctx.db.user.findMany({ where: { customerId, id: { in: wanted } }, select: { id: true } })).map((u) => u.id));
  const unknown = userIds.flatMap((id, i) =>
    known.has(id) ? [] : [{ path: `userIds[${i}]`, code: "unknown_user", message: `${id} is not a user of the customer` }],
  );
  if (unknown.length > 0) throw new AppError("validation_failed", "Unknown users", unknown);
  await ctx.db.$transaction([
    ctx.db.folderShare.deleteMany({ where: { folderId, userId: { notIn: wanted } } }),
    ctx.db.folderShare.createMany({ data: wanted.map((userId) => ({ folderId, userId })), skipDuplicates: true }),
  ]);
  return folderShares(ctx, folderId);
}
