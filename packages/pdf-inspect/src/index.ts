export { inspectPdf, type PdfInspection, type PdfRefusal } from "./inspect-pdf";
export { PdfInspector, type PdfInspectorOptions } from "./pdf-inspector";
export type { SealFinding } from "./messages";
