import { openAsBlob } from "node:fs";
import path from "node:path";
import type { CaseFileInput, UploadFile } from "./case-file-input";

const PDF = "application/pdf";

/**
 * The create request's body: `data` as a JSON string (never a JSON part), then one `files` part per
 * file. Files from disk become file-backed Blobs (streamed when sent, not read into memory here);
 * the FormData can be sent again, which the 401 retry relies on.
 */
export async function createCaseFileForm(caseFile: CaseFileInput, files: readonly UploadFile[]): Promise<FormData> {
  const form = new FormData();
  form.append("data", JSON.stringify({ caseFile }));
  for (const file of files) {
    if ("path" in file) {
      const blob = await openAsBlob(file.path, { type: PDF });
      form.append("files", blob, file.name ?? path.basename(file.path));
    } else {
      // Copy: the Blob must not change if the caller reuses its buffer before the upload is sent.
      form.append("files", new Blob([new Uint8Array(file.content)], { type: PDF }), file.name);
    }
  }
  return form;
}
