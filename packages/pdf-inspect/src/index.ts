export { inspectPdf, type InspectLimits, type PdfInspection, type PdfRefusal } from "./inspect-pdf";
export { PDF_INSPECT_DEFAULTS, PdfInspector, type PdfInspectorOptions } from "./pdf-inspector";
export type { SealFinding } from "./messages";
