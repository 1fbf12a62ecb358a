import type { PenneoApiVersion } from "../casefiles/casefile-contracts";
import { ZCaseFileList, ZCaseFileParams } from "../casefiles/casefile-schemas";
import { LIST_LINK_HEADER } from "../contract/list-page";
import { API_AUTH, errors, json, route, TAGS } from "../contract/route";
import {
  ZFolder,
  ZFolderCaseFileParams,
  ZFolderCaseFilesQuery,
  ZFolderCreate,
  ZFolderList,
  ZFolderListQuery,
  ZFolderParams,
  ZFolderUpdate,
} from "./folder-schemas";

const AUTH_401 = "Missing or invalid credentials";

/** Penneo's folder paths in one of the API versions its clients use (folder-router.ts serves them). */
export function folderRoutes<V extends PenneoApiVersion>(v: V) {
  const base = { tags: [TAGS.folders], security: API_AUTH } as const;
  const folders = `/api/${v}/folders` as const;
  const folder = `${folders}/{id}` as const;
  const link = `${folder}/casefiles/{caseFileId}` as const;
  const jsonBody = <S extends typeof ZFolderCreate | typeof ZFolderUpdate>(schema: S) => ({ schema, mediaTypes: ["application/json"] as const });
  return {
    listFolders: route({
      ...base,
      method: "get",
      path: folders,
      operationId: `penneo${v}ListFolders`,
      summary: "The customer's folders",
      description:
        "Filters: `title` (contains, ignoring case), `parentId` (0: the top level). Paged as Penneo's clients page (`page`/`per_page` " +
        "with a Link header, or `limit`/`offset`); without paging at most LIST_MAX_PAGE_SIZE, in id order unless `sort` says otherwise.",
      request: { query: ZFolderListQuery },
      responses: {
        200: { description: "A JSON array of folders", content: json(ZFolderList), headers: LIST_LINK_HEADER },
        ...errors({ 400: "Invalid filter, sort or paging (each named)", 401: AUTH_401 }),
      },
    }),
    createFolder: route({
      ...base,
      method: "post",
      path: folders,
      operationId: `penneo${v}CreateFolder`,
      summary: "Create a folder, at the top or under a parent",
      request: { body: jsonBody(ZFolderCreate) },
      responses: {
        201: { description: "The folder, with its id", content: json(ZFolder) },
        ...errors({ 400: "Invalid title, or `parent` names no folder of the customer", 401: AUTH_401 }),
      },
    }),
    getFolder: route({
      ...base,
      method: "get",
      path: folder,
      operationId: `penneo${v}GetFolder`,
      summary: "Read a folder",
      request: { params: ZFolderParams },
      responses: { 200: { description: "The folder", content: json(ZFolder) }, ...errors({ 401: AUTH_401, 404: "No such folder for this customer" }) },
    }),
    updateFolder: route({
      ...base,
      method: "put",
      path: folder,
      operationId: `penneo${v}UpdateFolder`,
      summary: "Rename a folder, or move it under another parent",
      description:
        "Partial: only the keys sent change (`title`; `parent` or `parentId`, null for the top). Keys of a fetched folder sent back " +
        "(`id`, `sdkClassName`, `created`, `updated`) are ignored. A folder cannot move under itself or one of its subfolders (400 naming `parent`).",
      request: { params: ZFolderParams, body: jsonBody(ZFolderUpdate) },
      responses: {
        200: { description: "The folder as changed", content: json(ZFolder) },
        ...errors({
          400: "Invalid title, or a parent that is no folder of the customer or would make a cycle",
          401: AUTH_401,
          404: "No such folder for this customer",
        }),
      },
    }),
    deleteFolder: route({
      ...base,
      method: "delete",
      path: folder,
      operationId: `penneo${v}DeleteFolder`,
      summary: "Delete a folder (never its case files)",
      description:
        "The folder and its links go: its case files stay, without a folder (each logs folderChanged); its subfolders move up to its parent (or the top).",
      request: { params: ZFolderParams },
      responses: { 204: { description: "Deleted" }, ...errors({ 401: AUTH_401, 404: "No such folder for this customer" }) },
    }),
    linkCaseFile: route({
      ...base,
      method: "post",
      alsoMethods: ["link"],
      path: link,
      operationId: `penneo${v}LinkFolderCaseFile`,
      summary: "Put a case file in the folder (sdk-net POST, sdk-php LINK)",
      description: "A case file is in at most one folder: this moves it here from any other (logged as folderChanged). Already here: nothing changes. No body.",
      request: { params: ZFolderCaseFileParams },
      responses: {
        204: { description: "The case file is in the folder" },
        ...errors({ 401: AUTH_401, 404: "No such folder or case file for this customer", 409: "The case file is deleted" }),
      },
    }),
    unlinkCaseFile: route({
      ...base,
      method: "delete",
      alsoMethods: ["unlink"],
      path: link,
      operationId: `penneo${v}UnlinkFolderCaseFile`,
      summary: "Take a case file out of the folder (sdk-net DELETE, sdk-php UNLINK)",
      description: "The case file is then in no folder (logged as folderChanged). Not in this folder: nothing changes. No body.",
      request: { params: ZFolderCaseFileParams },
      responses: {
        204: { description: "The case file is not in the folder" },
        ...errors({ 401: AUTH_401, 404: "No such folder or case file for this customer", 409: "The case file is deleted" }),
      },
    }),
    listFolderCaseFiles: route({
      ...base,
      method: "get",
      path: `${folder}/casefiles`,
      operationId: `penneo${v}ListFolderCaseFiles`,
      summary: "The case files in a folder",
      description:
        "Each as `GET casefiles/{id}` answers it; case files in the recycle bin are left out. Paged like every list (sdk-php's " +
        "getCaseFiles sends page and per_page=PHP_INT_MAX: clamped to LIST_MAX_PAGE_SIZE).",
      request: { params: ZFolderParams, query: ZFolderCaseFilesQuery },
      responses: {
        200: { description: "A JSON array of case files", content: json(ZCaseFileList), headers: LIST_LINK_HEADER },
        ...errors({ 400: "Invalid sort or paging (each named)", 401: AUTH_401, 404: "No such folder for this customer" }),
      },
    }),
    caseFileFolders: route({
      ...base,
      method: "get",
      path: `/api/${v}/casefiles/{id}/folders`,
      operationId: `penneo${v}ListCaseFileFolders`,
      summary: "The folder a case file is in (sdk-net CaseFile.GetFoldersAsync)",
      description: "A JSON array: empty, or the one folder the case file is in.",
      request: { params: ZCaseFileParams },
      responses: {
        200: { description: "[] or [folder]", content: json(ZFolderList) },
        ...errors({ 401: AUTH_401, 404: "No such case file for this customer" }),
      },
    }),
  };
}
