import type { Folder } from "@esign/db";
import type { FolderView } from "./folder-schemas";

const unix = (d: Date): number => Math.floor(d.getTime() / 1000);

/** A folder as Penneo's SDKs read it: `parentId`, never a `parent` object or `childFolders` (folder-schemas.ts). */
export function presentFolder(f: Folder): FolderView {
  return { sdkClassName: "Folder", id: f.id, title: f.title, parentId: f.parentId, created: unix(f.createdAt), updated: unix(f.updatedAt) };
}
