import { ZBinaryFile } from "../contract/common-schemas";
import { errors, PUBLIC, route, TAGS } from "../contract/route";
import { DOCS_ASSETS_PATH, DOCS_PATH, ZDocsAssetParams } from "./docs-assets";

/** The page that shows the OpenAPI document (the document's own route is the top floor's: ../openapi/). */
export function docsRoutes() {
  const docs = { tags: [TAGS.docs], security: PUBLIC } as const;
  return {
    docsPage: route({
      ...docs,
      method: "get",
      path: DOCS_PATH,
      operationId: "docsPage",
      summary: "This page: swagger-ui over /openapi.json",
      responses: { 200: { description: "HTML", content: { "text/html": null } } },
    }),
    docsAsset: route({
      ...docs,
      method: "get",
      path: `${DOCS_ASSETS_PATH}/{file}`,
      operationId: "docsAsset",
      summary: "Static files of the docs page (swagger-ui-dist)",
      request: { params: ZDocsAssetParams },
      responses: {
        200: {
          description: "The file",
          content: { "text/css": ZBinaryFile, "text/javascript": ZBinaryFile, "image/png": ZBinaryFile },
        },
        ...errors({ 404: "Not one of the page's files" }),
      },
    }),
  };
}
