import { defineStatement, qb } from "@esign/db";
import type { ListWindow } from "../contract/list-query";
import type { FOLDER_SORTABLE } from "./folder-schemas";

/*
 * The folder tree of a customer and the case files in it. Order of locks, wherever they meet: the
 * customer's tree lock (an advisory lock, folder-store.ts) for moves and deletes, then the folder
 * row, then the case file rows. A case file is put in a folder only while the folder row is held
 * FOR KEY SHARE, so a folder deleted at the same moment is either waited for or waits; the foreign
 * key never fails a request.
 */

const FOLDER_COLUMNS = ["id", "customerId", "title", "parentId", "createdAt", "updatedAt"] as const;

/**
 * A folder of the customer, or no row.
 *
 * Locks: nothing (a plain read).
 */
export const folderSql = defineStatement(
  "folder-of-customer",
  { id: 1, customerId: 1 },
  ({ id, customerId }) => qb.selectFrom("Folder").select(FOLDER_COLUMNS).where("id", "=", id).where("customerId", "=", customerId),
  { reuse: "shape" },
);

/**
 * Locks a folder of the customer against change and deletion, and reads it; no row when there is
 * none.
 *
 * Locks: the Folder row FOR UPDATE until the transaction ends (a delete or move of it).
 */
export const lockFolderSql = defineStatement(
  "lock-folder",
  { id: 1, customerId: 1 },
  ({ id, customerId }) => qb.selectFrom("Folder").select(FOLDER_COLUMNS).where("id", "=", id).where("customerId", "=", customerId).forUpdate(),
  { reuse: "shape" },
);

/**
 * Holds a folder of the customer so that it cannot be deleted while something is put in or under
 * it; no row when there is none.
 *
 * Locks: the Folder row FOR KEY SHARE until the transaction ends (conflicts only with its deletion
 * or a lock FOR UPDATE, not with other holders or a rename).
 */
export const holdFolderSql = defineStatement(
  "hold-folder",
  { id: 1, customerId: 1 },
  ({ id, customerId }) => qb.selectFrom("Folder").select("id").where("id", "=", id).where("customerId", "=", customerId).forKeyShare(),
  { reuse: "shape" },
);

/**
 * A new folder.
 *
 * Locks: the new row; its parent is held by holdFolderSql before.
 */
export const insertFolderSql = defineStatement(
  "insert-folder",
  { customerId: 1, title: "t", parentId: 1 as number | null },
  (a) => qb.insertInto("Folder").values({ customerId: a.customerId, title: a.title, parentId: a.parentId }).returning(FOLDER_COLUMNS),
  { reuse: "shape" },
);

/**
 * Whether `folderId` is `parentId` or one of its ancestors: moving `folderId` under `parentId` would
 * make a cycle. UNION (not UNION ALL): the walk ends even on a tree that were already broken.
 *
 * Locks: nothing; the caller holds the customer's tree lock, so no other move runs meanwhile.
 */
export const wouldCycleSql = defineStatement(
  "folder-move-would-cycle",
  { folderId: 1, parentId: 2 },
  ({ folderId, parentId }) =>
    qb
      .withRecursive("up(id, parentId)", (db) =>
        db
          .selectFrom("Folder")
          .select(["id", "parentId"])
          .where("id", "=", parentId)
          .union((u) => u.selectFrom("Folder as f").innerJoin("up", "up.parentId", "f.id").select(["f.id", "f.parentId"])),
      )
      .selectNoFrom((eb) => eb.exists(eb.selectFrom("up").select("up.id").where("up.id", "=", folderId)).as("cycle")),
  { reuse: "shape" },
);

/**
 * A folder renamed and/or moved (only the fields given).
 *
 * Locks: the Folder row, already locked by lockFolderSql.
 */
export const updateFolderSql = defineStatement(
  "update-folder",
  { id: 1, title: "t" as string | undefined, parentId: 1 as number | null | undefined },
  (a) =>
    qb
      .updateTable("Folder")
      .set((eb) => ({
        ...(a.title !== undefined ? { title: a.title } : {}),
        ...(a.parentId !== undefined ? { parentId: a.parentId } : {}),
        updatedAt: eb.fn<Date>("now"),
      }))
      .where("id", "=", a.id)
      .returning(FOLDER_COLUMNS),
  { reuse: "shape" },
);

/**
 * Takes every case file out of a folder that is being deleted; answers them (for their log).
 *
 * Locks: those CaseFile rows until the transaction ends (after the folder's row: the order of
 * folder-store.ts).
 */
export const emptyFolderSql = defineStatement(
  "empty-folder",
  { folderId: 1 },
  ({ folderId }) =>
    qb
      .updateTable("CaseFile")
      .set((eb) => ({ folderId: null, updatedAt: eb.fn<Date>("now") }))
      .where("folderId", "=", folderId)
      .returning(["id", "customerId"]),
  { reuse: "shape" },
);

/**
 * Moves the subfolders of a folder that is being deleted up to its parent (null: the top).
 *
 * Locks: those Folder rows until the transaction ends; the caller holds the customer's tree lock.
 */
export const moveChildrenUpSql = defineStatement(
  "move-subfolders-up",
  { folderId: 1, parentId: 1 as number | null },
  ({ folderId, parentId }) =>
    qb
      .updateTable("Folder")
      .set((eb) => ({ parentId, updatedAt: eb.fn<Date>("now") }))
      .where("parentId", "=", folderId),
  { reuse: "shape" },
);

/**
 * Deletes a folder (its case files and subfolders moved out before).
 *
 * Locks: the Folder row, already locked by lockFolderSql.
 */
export const deleteFolderSql = defineStatement("delete-folder", { id: 1 }, ({ id }) => qb.deleteFrom("Folder").where("id", "=", id), { reuse: "shape" });

/**
 * Puts a case file in a folder, or in none (null).
 *
 * Locks: the CaseFile row, already locked (lockCaseFileRow); the folder is held by holdFolderSql.
 */
export const setCaseFileFolderSql = defineStatement(
  "set-case-file-folder",
  { id: 1, folderId: 1 as number | null },
  ({ id, folderId }) =>
    qb
      .updateTable("CaseFile")
      .set((eb) => ({ folderId, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", id),
  { reuse: "shape" },
);

/**
 * A case file of the customer and the folder it is in (the folder's columns null when in none); no
 * row when the case file is not the customer's.
 *
 * Locks: nothing (a plain read).
 */
export const caseFileFolderSql = defineStatement(
  "case-file-folder",
  { caseFileId: 1, customerId: 1 },
  ({ caseFileId, customerId }) =>
    qb
      .selectFrom("CaseFile as c")
      .leftJoin("Folder as f", "f.id", "c.folderId")
      .select(["c.id as caseFileId", "f.id", "f.customerId", "f.title", "f.parentId", "f.createdAt", "f.updatedAt"])
      .where("c.id", "=", caseFileId)
      .where("c.customerId", "=", customerId),
  { reuse: "shape" },
);

const FOLDER_ORDER = { id: "id", title: "title", created: "createdAt" } as const;

export interface FolderListArgs {
  customerId: number;
  titleContains?: string;
  /** 0: the folders at the top. */
  parentId?: number;
  window: ListWindow<(typeof FOLDER_SORTABLE)[number]>;
}

/**
 * One page of the customer's folders (one row more than the page, which tells there is a next one).
 * Built per call: the sort fields pick the columns.
 *
 * Locks: nothing (a plain read).
 */
export const listFoldersSql = defineStatement(
  "list-folders",
  {
    customerId: 1,
    titleContains: "%a%",
    parentId: 0,
    window: { offset: 0, limit: 10, page: 1, sort: [{ field: "title", direction: "asc" }] },
  } as FolderListArgs,
  (a: FolderListArgs) => {
    let q = qb
      .selectFrom("Folder")
      .select(FOLDER_COLUMNS)
      .where("customerId", "=", a.customerId)
      .$if(a.titleContains !== undefined, (w) => w.where("title", "ilike", a.titleContains!))
      .$if(a.parentId !== undefined && a.parentId > 0, (w) => w.where("parentId", "=", a.parentId!))
      .$if(a.parentId === 0, (w) => w.where("parentId", "is", null));
    for (const { field, direction } of a.window.sort) q = q.orderBy(FOLDER_ORDER[field], direction);
    if (!a.window.sort.some((s) => s.field === "id")) q = q.orderBy("id", "asc");
    return q.offset(a.window.offset).limit(a.window.limit + 1);
  },
);
