export type { FileStorage, StagedFile } from "./file-storage";
export { LocalFileStorage } from "./local-file-storage";
export { looksLikePdf } from "./pdf-signature";
