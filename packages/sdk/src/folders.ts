import { z } from "zod";
import type { Api } from "./api";
import { listQuery, type PageQuery } from "./list-query";
import { ZCaseFile, type CaseFile } from "./schemas";

export const FOLDERS_PATH = "/api/v3/folders";

export const ZFolder = z.object({
  id: z.number(),
  title: z.string(),
  /** The parent folder; null at the top. */
  parentId: z.number().nullable(),
  /** Unix seconds. */
  created: z.number(),
  updated: z.number(),
});
/** A folder of the customer's archive. */
export type Folder = z.infer<typeof ZFolder>;

export interface FolderListQuery extends PageQuery {
  /** Folders whose title contains this, ignoring case. */
  title?: string;
  /** The subfolders of this folder; 0: the folders at the top. */
  parentId?: number;
}

export interface FolderCreate {
  title: string;
  /** Under this folder; absent: at the top. */
  parentId?: number;
}

export interface FolderUpdate {
  title?: string;
  /** Move under this folder; null: to the top. Never under itself or one of its subfolders (400). */
  parentId?: number | null;
}

const ZShares = z.object({ userIds: z.array(z.number()) });
const byId = (id: number) => `${FOLDERS_PATH}/${encodeURIComponent(String(id))}`;
const link = (folderId: number, caseFileId: number) => `${byId(folderId)}/casefiles/${encodeURIComponent(String(caseFileId))}`;

/** The customer's folders, and which case file is in which (a case file is in at most one folder). */
export class Folders {
  constructor(private readonly api: Api) {}

  /** One page of folders (without paging: up to the server's maximum), in id order unless `sort` says otherwise. */
  list(query: FolderListQuery = {}): Promise<Folder[]> {
    const { title, parentId, ...paging } = query;
    return this.api.json({ method: "GET", path: `${FOLDERS_PATH}${listQuery({ title, parentId }, paging)}`, auth: "x-auth-token" }, z.array(ZFolder));
  }

  get(id: number): Promise<Folder> {
    return this.api.json({ method: "GET", path: byId(id), auth: "x-auth-token" }, ZFolder);
  }

  /** 201; a parent that is no folder of the customer is a 400 naming `parent`. */
  create(input: FolderCreate): Promise<Folder> {
    const json = input.parentId === undefined ? { title: input.title } : { title: input.title, parent: input.parentId };
    return this.api.json({ method: "POST", path: FOLDERS_PATH, auth: "x-auth-token", json }, ZFolder);
  }

  /** Renames and/or moves; only the keys given change. */
  update(id: number, change: FolderUpdate): Promise<Folder> {
    return this.api.json({ method: "PUT", path: byId(id), auth: "x-auth-token", json: change }, ZFolder);
  }

  /** Its case files stay, in no folder; its subfolders move up to its parent. */
  delete(id: number): Promise<void> {
    return this.api.empty({ method: "DELETE", path: byId(id), auth: "x-auth-token" });
  }

  /** Puts the case file in this folder (moving it out of any other). */
  addCaseFile(folderId: number, caseFileId: number): Promise<void> {
    return this.api.empty({ method: "POST", path: link(folderId, caseFileId), auth: "x-auth-token" });
  }

  /** Takes the case file out of this folder (nothing happens when it is not in it). */
  removeCaseFile(folderId: number, caseFileId: number): Promise<void> {
    return this.api.empty({ method: "DELETE", path: link(folderId, caseFileId), auth: "x-auth-token" });
  }

  /** One page of the case files in the folder (not those in the recycle bin). */
  caseFiles(folderId: number, paging: PageQuery = {}): Promise<CaseFile[]> {
    return this.api.json({ method: "GET", path: `${byId(folderId)}/casefiles${listQuery({}, paging)}`, auth: "x-auth-token" }, z.array(ZCaseFile));
  }

  /** The folder the case file is in, or null. */
  async ofCaseFile(caseFileId: number): Promise<Folder | null> {
    const path = `/api/v3/casefiles/${encodeURIComponent(String(caseFileId))}/folders`;
    const [folder] = await this.api.json({ method: "GET", path, auth: "x-auth-token" }, z.array(ZFolder).max(1));
    return folder ?? null;
  }

  /** The users a folder is shared with (members see the case files in it). */
  async shares(id: number): Promise<number[]> {
    return (await this.api.json({ method: "GET", path: `${byId(id)}/shares`, auth: "x-auth-token" }, ZShares)).userIds;
  }

  /** Shares a folder with exactly these users (admins only). */
  async setShares(id: number, userIds: number[]): Promise<number[]> {
    return (await this.api.json({ method: "PUT", path: `${byId(id)}/shares`, auth: "x-auth-token", json: { userIds } }, ZShares)).userIds;
  }
}
