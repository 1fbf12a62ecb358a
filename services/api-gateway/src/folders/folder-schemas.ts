import { z } from "zod";
import { component } from "../contract/components";
import { ignoredReadOnly, unixTime, ZId } from "../contract/common-schemas";
import { listKeys, once, queryCount } from "../contract/list-query";

/*
 * Penneo's folders as its SDKs send and read them (docs/penneo-compatibility.md, "Folders"):
 * sdk-net creates and moves with `{title, parent}` where `parent` is the parent's id, sdk-php sends
 * `{title}` only. The answer names the parent by `parentId` and has NO `parent` key: sdk-net reads
 * `parent` as a Folder object and its list post-processor throws when that parent is not in the
 * same answer (a filtered or paged list); nor `childFolders`, which it would fill a second time.
 */

export const FOLDER_SORTABLE = ["id", "title", "created"] as const;
export const CASEFILE_SORTABLE = ["id", "title", "created"] as const;

const MAX_ID = 2_147_483_647;

export const ZFolder = component(
  "Folder",
  z
    .object({
      sdkClassName: z.literal("Folder").describe("The entity's class, as Penneo's SDKs read embedded entities"),
      id: z.int(),
      title: z.string(),
      parentId: z.int().nullable().describe("The parent folder's id; null at the top"),
      created: unixTime(),
      updated: unixTime(),
    })
    .describe("A folder of the customer's archive. No `parent` object and no `childFolders` (sdk-net's list post-processor)"),
);

export const ZFolderList = component("FolderList", z.array(ZFolder).describe("A JSON array, paged as the list's query asks"));

export const ZFolderParams = z.object({ id: ZId });
export const ZFolderCaseFileParams = z.object({ id: ZId, caseFileId: ZId });

const ZTitle = z
  .string()
  .max(255)
  .refine((v) => v.trim().length > 0, "must not be empty");

const ZParentRef = z.int().min(1).max(MAX_ID).nullable();

const READ_ONLY_KEYS = {
  id: ignoredReadOnly("The folder's id"),
  sdkClassName: ignoredReadOnly("The entity's class"),
  created: ignoredReadOnly("Creation time"),
  updated: ignoredReadOnly("Last change"),
  childFolders: ignoredReadOnly("sdk-net's own tree"),
};

const parentKeys = {
  parent: ZParentRef.optional().describe("The parent folder's id (sdk-net's `Parent`); null: at the top"),
  parentId: ZParentRef.optional().describe("The same, as answers name it"),
};

/** `parent` and `parentId` are one field: both given must agree. */
const oneParent = (v: { parent?: number | null; parentId?: number | null }, ctx: z.RefinementCtx) => {
  if (v.parent !== undefined && v.parentId !== undefined && v.parent !== v.parentId) {
    ctx.addIssue({ code: "custom", path: ["parentId"], message: "names another folder than parent", params: { code: "conflicting_parent" } });
  }
};

export const ZFolderCreate = component(
  "FolderCreate",
  z
    .strictObject({ title: ZTitle.describe("1 to 255 characters"), ...parentKeys, ...READ_ONLY_KEYS })
    .superRefine(oneParent)
    .describe("sdk-net sends `{title, parent}`, sdk-php `{title}`"),
);

export const ZFolderUpdate = component(
  "FolderUpdate",
  z
    .strictObject({ title: ZTitle.optional(), ...parentKeys, ...READ_ONLY_KEYS })
    .superRefine(oneParent)
    .describe("Partial: an absent key is unchanged. A new parent moves the folder (never under itself or its own subfolders)"),
);

const queryText = () => z.preprocess(once, z.string().max(255));

export const ZFolderListQuery = z.strictObject({
  ...listKeys(FOLDER_SORTABLE),
  title: queryText().optional().describe("Folders whose title contains this, ignoring case (sdk-php findByTitle)"),
  parentId: queryCount(0, MAX_ID).optional().describe("The subfolders of this folder; 0: the folders at the top"),
});

export const ZFolderCaseFilesQuery = z.strictObject({ ...listKeys(CASEFILE_SORTABLE) });

export type FolderView = z.input<typeof ZFolder>;
export type FolderCreate = z.output<typeof ZFolderCreate>;
export type FolderUpdate = z.output<typeof ZFolderUpdate>;
