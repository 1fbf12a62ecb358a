import { z } from "zod";
import { component } from "../contract/components";
import { API_AUTH, errors, json, route, TAGS } from "../contract/route";
import { ZFolderParams } from "./folder-schemas";

export const ZFolderShares = component(
  "FolderShares",
  z
    .object({ userIds: z.array(z.int().positive().max(2_147_483_647)).max(1000).describe("Users of the customer, in id order") })
    .strict()
    .describe("The members a folder is shared with: they see the case files in it"),
);

/** Sharing a folder with members (folder-router.ts serves them). */
export function folderShareRoutes() {
  const base = { tags: [TAGS.folders], security: API_AUTH } as const;
  const path = "/api/v3/folders/{id}/shares" as const;
  return {
    getFolderShares: route({
      ...base,
      method: "get",
      path,
      operationId: "getFolderShares",
      summary: "Who a folder is shared with",
      request: { params: ZFolderParams },
      responses: {
        200: { description: "The users", content: json(ZFolderShares) },
        ...errors({ 401: "Missing or invalid credentials", 404: "No such folder" }),
      },
    }),
    setFolderShares: route({
      ...base,
      method: "put",
      path,
      operationId: "setFolderShares",
      summary: "Share a folder with exactly these users (administrators)",
      description:
        "Replaces the list. A member sees the case files in the folder (not those of its subfolders). Every id must be a user of the customer (400 naming each other).",
      request: { params: ZFolderParams, body: { schema: ZFolderShares, mediaTypes: ["application/json"] as const } },
      responses: {
        200: { description: "The users", content: json(ZFolderShares) },
        ...errors({ 400: "Invalid or unknown users (each named)", 401: "Missing or invalid credentials", 403: "A member", 404: "No such folder" }),
      },
    }),
  };
}
