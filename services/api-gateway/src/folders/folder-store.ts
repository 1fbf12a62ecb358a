import { advisoryXactLock, lockCaseFileRow, recordLog, run, runOne, sqlPool, type Folder, type SqlClient, withSqlTransaction } from "@esign/db";
import { AppError } from "@esign/errors";
import type { LogAudit } from "@esign/schema";
import type { GatewayContext } from "../context";
import { caseFileNotFound } from "../casefiles/owned-casefile";
import {
  caseFileFolderSql,
  deleteFolderSql,
  emptyFolderSql,
  type FolderListArgs,
  folderSql,
  holdFolderSql,
  insertFolderSql,
  listFoldersSql,
  lockFolderSql,
  moveChildrenUpSql,
  setCaseFileFolderSql,
  updateFolderSql,
  wouldCycleSql,
} from "./folder-store.sql";

/*
 * The folder tree's changes, each in one transaction. Moves and deletes of a customer's folders
 * take the customer's tree lock first (an advisory lock): two moves checked at the same moment
 * could otherwise each pass the cycle check and together make a cycle. Creating and linking need no
 * tree lock; they hold the folder they put something in (FOR KEY SHARE) against its deletion.
 */

/** The advisory lock namespace of a customer's folder tree ("fold"). */
const TREE_LOCK = 0x666f6c64;

export const folderNotFound = () => new AppError("not_found", "Folder not found");
const parentIssue = (field: string, message: string, code: string) =>
  new AppError("validation_failed", `Invalid ${field}: ${message}`, [{ path: field, code, message }]);

const lockTree = (client: SqlClient, customerId: number) => run(client, advisoryXactLock, { namespace: TREE_LOCK, key: customerId });

const transaction = <T>(ctx: GatewayContext, fn: (client: SqlClient) => Promise<T>) => withSqlTransaction(sqlPool(ctx.db), fn);

/** The parent a request names, held against deletion; a 400 naming the field when it is no folder of the customer. */
async function holdParent(client: SqlClient, customerId: number, parent: { field: string; id: number }): Promise<void> {
  if (!(await runOne(client, holdFolderSql, { id: parent.id, customerId }))) {
    throw parentIssue(parent.field, `no folder ${parent.id} of this customer`, "unknown_folder");
  }
}

export async function getFolder(ctx: GatewayContext, customerId: number, id: number): Promise<Folder> {
  const folder = await runOne(sqlPool(ctx.db), folderSql, { id, customerId });
  if (!folder) throw folderNotFound();
  return folder;
}

export function listFolders(ctx: GatewayContext, args: FolderListArgs): Promise<Folder[]> {
  return run(sqlPool(ctx.db), listFoldersSql, args);
}

/** `parent`: the id and the request field that named it (null or absent: at the top). */
export function createFolder(ctx: GatewayContext, customerId: number, title: string, parent: { field: string; id: number } | null): Promise<Folder> {
  return transaction(ctx, async (client) => {
    if (parent) await holdParent(client, customerId, parent);
    const folder = await runOne(client, insertFolderSql, { customerId, title, parentId: parent?.id ?? null });
    if (!folder) throw new Error("folder insert returned no row");
    return folder;
  });
}

export interface FolderChange {
  title?: string;
  /** Absent: stays where it is; `id: null`: to the top. */
  parent?: { field: string; id: number | null };
}

/** Renames and/or moves a folder; a move under itself or one of its subfolders is a 400 naming the field. */
export function updateFolder(ctx: GatewayContext, customerId: number, id: number, change: FolderChange): Promise<Folder> {
  return transaction(ctx, async (client) => {
    const { parent } = change;
    if (parent) await lockTree(client, customerId);
    if (!(await runOne(client, lockFolderSql, { id, customerId }))) throw folderNotFound();
    if (parent && parent.id !== null) {
      if (parent.id === id) throw parentIssue(parent.field, "a folder cannot be its own parent", "folder_cycle");
      await holdParent(client, customerId, { field: parent.field, id: parent.id });
      if ((await runOne(client, wouldCycleSql, { folderId: id, parentId: parent.id }))?.cycle) {
        throw parentIssue(parent.field, `folder ${parent.id} is inside folder ${id}: moving it there would make a cycle`, "folder_cycle");
      }
    }
    const updated = await runOne(client, updateFolderSql, { id, title: change.title, parentId: parent?.id });
    if (!updated) throw new Error("folder update returned no row");
    return updated;
  });
}

/**
 * Deletes a folder and its links, never its case files: they stay, in no folder (each logs
 * folderChanged); its subfolders move up to its parent (or the top).
 */
export function deleteFolder(ctx: GatewayContext, customerId: number, id: number, audit: LogAudit): Promise<void> {
  return transaction(ctx, async (client) => {
    await lockTree(client, customerId);
    const folder = await runOne(client, lockFolderSql, { id, customerId });
    if (!folder) throw folderNotFound();
    const emptied = await run(client, emptyFolderSql, { folderId: id });
    await recordLog(
      client,
      emptied.map((cf) => ({
        customerId: cf.customerId,
        caseFileId: cf.id,
        event: "folderChanged" as const,
        audit,
        detail: { from: id, to: null, reason: "folderDeleted" },
      })),
    );
    await run(client, moveChildrenUpSql, { folderId: id, parentId: folder.parentId });
    await run(client, deleteFolderSql, { id });
  });
}

/**
 * Puts a case file of the customer in a folder (`folderId`), or takes it out of `out` (null): a
 * case file is in at most one folder. A change is logged (folderChanged, from and to); no change
 * (already there, or not in the folder it is taken out of) changes and logs nothing.
 */
export function setCaseFileFolder(
  ctx: GatewayContext,
  customerId: number,
  caseFileId: number,
  target: { folderId: number; link: boolean },
  audit: LogAudit,
): Promise<void> {
  return transaction(ctx, async (client) => {
    // The folder first, then the case file: the order deleteFolder takes them in.
    if (!(await runOne(client, holdFolderSql, { id: target.folderId, customerId }))) throw folderNotFound();
    const caseFile = await runOne(client, lockCaseFileRow, { id: caseFileId, customerId });
    if (!caseFile) throw caseFileNotFound();
    if (caseFile.deletedAt !== null) throw new AppError("conflict", "The case file is deleted: restore it before filing it");
    const to = target.link ? target.folderId : caseFile.folderId === target.folderId ? null : caseFile.folderId;
    if (to === caseFile.folderId) return;
    await run(client, setCaseFileFolderSql, { id: caseFileId, folderId: to });
    await recordLog(client, [{ customerId, caseFileId, event: "folderChanged", audit, detail: { from: caseFile.folderId, to } }]);
  });
}

/** The folder a case file of the customer is in (null: none); 404 for a case file that is not the customer's. */
export async function folderOfCaseFile(ctx: GatewayContext, customerId: number, caseFileId: number): Promise<Folder | null> {
  const row = await runOne(sqlPool(ctx.db), caseFileFolderSql, { caseFileId, customerId });
  if (!row) throw caseFileNotFound();
  const { caseFileId: _cf, id, customerId: owner, title, parentId, createdAt, updatedAt } = row;
  return id === null || owner === null || title === null || createdAt === null || updatedAt === null
    ? null
    : { id, customerId: owner, title, parentId, createdAt, updatedAt };
}
