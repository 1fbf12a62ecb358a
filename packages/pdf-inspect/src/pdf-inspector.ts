import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { PdfInspection } from "./inspect-pdf";
import { ZInspectReply, ZSealReply, type InspectRequest, type SealFinding, type SealRequest } from "./messages";

export interface PdfInspectorOptions {
  /** Child processes inspecting at once (PDF_INSPECTORS). */
  processes: number;
  /** A file not inspected within this long is refused as unreadable, and its process replaced. */
  timeoutMs: number;
  /** Results remembered by content address: the same file uploaded again is not parsed again. */
  cacheSize?: number;
  onProblem?: (message: string, meta: Record<string, unknown>) => void;
}

interface Pending {
  resolve: (r: Verdict) => void;
  timer: NodeJS.Timeout;
  child: Slot;
}

/** A result, and whether it is about the file (remembered) or about this machine (not). */
interface Verdict {
  result: PdfInspection;
  aboutTheFile: boolean;
}

const machineFault = (detail: string): Verdict => ({ result: { ok: false, reason: "unreadable", detail }, aboutTheFile: false });

interface Slot {
  process: ChildProcess | null;
  busy: number;
}

// The child runs the TypeScript through tsx (`--import` resolves from the repository root), or, in a
// bundled service (scripts/build-services.ts sets this name at build time, a path from the repository
// root), its own bundle.
const REPO_ROOT = path.resolve(__dirname, "../../..");
const BUNDLED_ENTRY = process.env.ESIGN_PDF_INSPECTOR_BUNDLE;
const ENTRY = BUNDLED_ENTRY ? path.resolve(REPO_ROOT, BUNDLED_ENTRY) : path.join(__dirname, "inspector-process.ts");
const EXEC_ARGV = BUNDLED_ENTRY ? ["--enable-source-maps"] : ["--import", "tsx"];

/**
 * Inspects uploads in child processes: parsing a PDF costs CPU in proportion to its objects and
 * memory in proportion to its size, and neither belongs in the gateway's event loop or heap (the
 * gateway's RSS must not grow with a 50 MB upload). Processes start on first use, are reused,
 * and are replaced when one dies or hangs. Requests go to the least busy process.
 */
export class PdfInspector {
  private readonly slots: Slot[];
  private readonly pending = new Map<number, Pending>();
  private readonly sealPending = new Map<number, { resolve: (r: SealFinding | null | Error) => void; timer: NodeJS.Timeout; child: Slot }>();
  private readonly cache = new Map<string, PdfInspection>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: PdfInspectorOptions) {
    this.slots = Array.from({ length: Math.max(1, opts.processes) }, () => ({ process: null, busy: 0 }));
  }

  /** Inspects the file at `filePath`, whose content address is `sha256`. Never throws. */
  inspect(filePath: string, sha256: string): Promise<PdfInspection> {
    const cached = this.cache.get(sha256);
    if (cached) return Promise.resolve(cached);
    if (this.closed) return Promise.resolve(machineFault("the inspector is closed").result);
    const slot = this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
    const child = this.ensure(slot);
    const id = this.nextId++;
    return new Promise<Verdict>((resolve) => {
      const timer = setTimeout(() => {
        this.settle(id, machineFault(`the PDF could not be read within ${this.opts.timeoutMs} ms`));
        this.opts.onProblem?.("pdf inspection timed out; replacing its process", { timeoutMs: this.opts.timeoutMs });
        this.replace(slot);
      }, this.opts.timeoutMs);
      this.pending.set(id, { resolve, timer, child: slot });
      slot.busy += 1;
      const req: InspectRequest = { id, path: filePath };
      child.send(req, (err) => {
        if (err) this.settle(id, machineFault(`inspection could not start: ${err.message}`));
      });
    }).then((verdict) => {
      // Only verdicts about the content are remembered; a time-out or a lost process may be the machine's.
      if (verdict.aboutTheFile) this.remember(sha256, verdict.result);
      return verdict.result;
    });
  }

  /**
   * The last signature of the file at `filePath`, checked in an inspector process (the public
   * /verify): null when unsigned; an Error when it took longer than the time-out (the process is
   * replaced) or the process was lost.
   */
  checkSeal(filePath: string): Promise<SealFinding | null | Error> {
    if (this.closed) return Promise.resolve(new Error("the inspector is closed"));
    const slot = this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
    const child = this.ensure(slot);
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.settleSeal(id, new Error(`the signature could not be checked within ${this.opts.timeoutMs} ms`));
        this.opts.onProblem?.("seal check timed out; replacing its process", { timeoutMs: this.opts.timeoutMs });
        this.replace(slot);
      }, this.opts.timeoutMs);
      this.sealPending.set(id, { resolve, timer, child: slot });
      slot.busy += 1;
      const req: SealRequest = { id, op: "seal", path: filePath };
      child.send(req, (err) => {
        if (err) this.settleSeal(id, new Error(`the check could not start: ${err.message}`));
      });
    });
  }

  private settleSeal(id: number, outcome: SealFinding | null | Error): void {
    const p = this.sealPending.get(id);
    if (!p) return;
    this.sealPending.delete(id);
    clearTimeout(p.timer);
    p.child.busy = Math.max(0, p.child.busy - 1);
    p.resolve(outcome);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.sealPending.keys()]) this.settleSeal(id, new Error("the inspector closed"));
    for (const id of [...this.pending.keys()]) this.settle(id, machineFault("the inspector closed"));
    for (const slot of this.slots) slot.process?.kill();
  }

  private ensure(slot: Slot): ChildProcess {
    if (slot.process?.connected) return slot.process;
    const child = fork(ENTRY, [], { cwd: REPO_ROOT, execArgv: EXEC_ARGV, serialization: "json", stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.on("message", (raw: unknown) => {
      const sealed = ZSealReply.safeParse(raw);
      if (sealed.success) return this.settleSeal(sealed.data.id, sealed.data.error ? new Error(sealed.data.error) : sealed.data.seal);
      const reply = ZInspectReply.safeParse(raw);
      if (reply.success) this.settle(reply.data.id, { result: reply.data.result, aboutTheFile: true });
    });
    child.on("exit", (code, signal) => {
      if (slot.process === child) slot.process = null;
      // Whatever it was doing is lost: answered as unreadable (the request may be sent again).
      for (const [id, p] of this.pending) if (p.child === slot) this.settle(id, machineFault("the PDF inspector stopped while reading it"));
      for (const [id, p] of this.sealPending) if (p.child === slot) this.settleSeal(id, new Error("the PDF inspector stopped while checking it"));
      if (!this.closed) this.opts.onProblem?.("pdf inspector process exited", { code, signal });
    });
    slot.process = child;
    return child;
  }

  private replace(slot: Slot): void {
    const old = slot.process;
    slot.process = null;
    old?.kill("SIGKILL");
  }

  private settle(id: number, verdict: Verdict): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.child.busy = Math.max(0, p.child.busy - 1);
    p.resolve(verdict);
  }

  private remember(sha256: string, result: PdfInspection): void {
    const max = this.opts.cacheSize ?? 1000;
    if (max <= 0) return;
    if (this.cache.size >= max) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(sha256, result);
  }
}
