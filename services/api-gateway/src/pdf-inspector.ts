import type { AppConfig } from "@esign/config";
// The pool's own module, not the package's index: the index also exports inspectPdf, which loads
// @libpdf/core; the gateway only forks the inspector processes, which load it themselves.
import { PdfInspector } from "@esign/pdf-inspect/src/pdf-inspector";

/** The gateway's PDF inspector, with every bound from the settings (docs/operating.md, "PDF inspection"). */
export function createPdfInspector(config: AppConfig, onProblem?: (message: string, meta: Record<string, unknown>) => void): PdfInspector {
  return new PdfInspector({
    processes: config.PDF_INSPECTORS,
    timeoutMs: config.PDF_INSPECT_TIMEOUT_MS,
    maxInflatedBytes: config.PDF_INSPECT_MAX_INFLATED_BYTES,
    maxHeapMb: config.PDF_INSPECT_MAX_HEAP_MB,
    perTenant: config.PDF_INSPECT_PER_CUSTOMER,
    borrowMs: config.PDF_INSPECT_BORROW_MS,
    prefetch: config.PDF_INSPECT_PREFETCH,
    nice: config.PDF_INSPECT_NICE,
    onProblem,
  });
}

/** The queue turn of a create's uploads: its customer. */
export const customerTenant = (customerId: number): string => `customer:${customerId}`;
/** The queue turn of a public /verify: its address (no login). */
export const addressTenant = (address: string): string => `address:${address}`;
