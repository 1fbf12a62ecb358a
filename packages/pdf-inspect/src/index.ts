export { inspectPdf, type InspectLimits, type PdfInspection, type PdfRefusal } from "./inspect-pdf";
export { heapFlags, PDF_INSPECT_DEFAULTS, PdfInspector, type PdfInspectorOptions } from "./pdf-inspector";
export type { SealFinding } from "./messages";
