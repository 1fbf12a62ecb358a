import { fork, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { FairQueue } from "./fair-queue";
import type { PdfInspection } from "./inspect-pdf";
import { ZInspectReply, ZSealReply, type InspectRequest, type SealFinding, type SealRequest } from "./messages";

export interface PdfInspectorOptions {
  /** Child processes inspecting at once (PDF_INSPECTORS). */
  processes: number;
  /** A file not inspected within this long (from when its process takes it) is refused as too costly, and its process replaced. */
  timeoutMs: number;
  /** Bytes one document may decompress when opened (PDF_INSPECT_MAX_INFLATED_BYTES). */
  maxInflatedBytes?: number;
  /** Heap of each child process in MiB (PDF_INSPECT_MAX_HEAP_MB): a document that needs more kills it, and is refused as too costly. */
  maxHeapMb?: number;
  /** Files of one tenant (customer, address) inspected at once (PDF_INSPECT_PER_CUSTOMER); the rest wait their turn. */
  perTenant?: number;
  /**
   * Work-conserving (PDF_INSPECT_BORROW_MS): a tenant past its share may use a process nobody else
   * has work for; once such a borrowed run is this old and another tenant's file waits within its
   * share, the run is stopped (its process replaced) and its file goes back to the head of its
   * tenant's queue, to run within the share. 0: never borrow (strictly `perTenant`).
   */
  borrowMs?: number;
  /** Scheduling niceness of the processes (PDF_INSPECT_NICE, 0-19; 0 by default): above 0 the gateway's own work goes first under CPU pressure. */
  nice?: number;
  /** Results remembered by content address: the same file uploaded again is not parsed again. */
  cacheSize?: number;
  onProblem?: (message: string, meta: Record<string, unknown>) => void;
}

export const PDF_INSPECT_DEFAULTS = { maxInflatedBytes: 64 * 2 ** 20, maxHeapMb: 384, perTenant: 1, nice: 0, borrowMs: 500 } as const;

/** A result, and whether it is about the file (remembered) or about this machine or this moment (not). */
interface Verdict {
  result: PdfInspection;
  aboutTheFile: boolean;
}

// `resent`: sent again after its process was lost before it got it; `preempted`: a borrowed run was
// stopped for another tenant, so it waits for its tenant's share and never borrows again.
type Job =
  | { kind: "inspect"; path: string; resolve: (v: Verdict) => void; resent?: boolean; preempted?: boolean }
  | { kind: "seal"; path: string; resolve: (v: SealFinding | null | Error) => void; resent?: boolean; preempted?: boolean };

interface Running {
  id: number;
  job: Job;
  tenant: string;
  child: ChildProcess;
  timer: NodeJS.Timeout;
  /** Started past its tenant's share, on a process nobody else had work for. */
  borrowed: boolean;
  /** Set when a borrowed run has had its PDF_INSPECT_BORROW_MS: another tenant's arrival stops it. */
  borrowTimer?: NodeJS.Timeout;
  overdue?: boolean;
}

interface Slot {
  process: ChildProcess | null;
  running: Running | null;
}

const machineFault = (detail: string): Verdict => ({ result: { ok: false, reason: "unreadable", detail }, aboutTheFile: false });
const tooCostly = (detail: string): Verdict => ({ result: { ok: false, reason: "too_costly", detail }, aboutTheFile: false });

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
 * gateway's RSS must not grow with a 50 MB upload). Processes start on first use and are reused.
 *
 * Isolation (issue 26, item 2): each process works on one file at a time, so a process that dies
 * (its heap cap) or is killed (the time-out) takes only that file with it, refused as `too_costly`;
 * everything else waits here, in a queue per tenant served round-robin with at most `perTenant`
 * files of one tenant in the processes at once, and goes to the next free (or fresh) process. One
 * customer's hostile uploads therefore occupy at most its share of the processes, for at most the
 * bounded cost of one document each, and never fail another customer's file.
 */
export class PdfInspector {
  private readonly slots: Slot[];
  private readonly queue: FairQueue<Job>;
  private readonly cache = new Map<string, PdfInspection>();
  private readonly maxInflatedBytes: number;
  private readonly maxHeapMb: number;
  private readonly borrowMs: number;
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: PdfInspectorOptions) {
    this.slots = Array.from({ length: Math.max(1, opts.processes) }, () => ({ process: null, running: null }));
    this.queue = new FairQueue(Math.max(1, opts.perTenant ?? PDF_INSPECT_DEFAULTS.perTenant));
    this.maxInflatedBytes = opts.maxInflatedBytes ?? PDF_INSPECT_DEFAULTS.maxInflatedBytes;
    this.maxHeapMb = opts.maxHeapMb ?? PDF_INSPECT_DEFAULTS.maxHeapMb;
    this.borrowMs = opts.borrowMs ?? PDF_INSPECT_DEFAULTS.borrowMs;
  }

  /** Inspects the file at `filePath`, whose content address is `sha256`, in `tenant`'s turn. Never throws. */
  inspect(filePath: string, sha256: string, tenant = "anonymous"): Promise<PdfInspection> {
    const cached = this.cache.get(sha256);
    if (cached) return Promise.resolve(cached);
    if (this.closed) return Promise.resolve(machineFault("the inspector is closed").result);
    return new Promise<Verdict>((resolve) => this.enqueue(tenant, { kind: "inspect", path: filePath, resolve })).then((verdict) => {
      // Only verdicts about the content are remembered; a time-out or a lost process may be the machine's.
      if (verdict.aboutTheFile) this.remember(sha256, verdict.result);
      return verdict.result;
    });
  }

  /**
   * The last signature of the file at `filePath`, checked in an inspector process (the public
   * /verify) in `tenant`'s turn: null when unsigned; an Error when it took longer than the time-out
   * (the process is replaced) or the process was lost.
   */
  checkSeal(filePath: string, tenant = "anonymous"): Promise<SealFinding | null | Error> {
    if (this.closed) return Promise.resolve(new Error("the inspector is closed"));
    return new Promise((resolve) => this.enqueue(tenant, { kind: "seal", path: filePath, resolve }));
  }

  /** Processes started and not (yet) gone. */
  get processesRunning(): number {
    return this.slots.filter((slot) => slot.process?.connected).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.drain()) answer(job, machineFault("the inspector closed"), new Error("the inspector closed"));
    for (const slot of this.slots) {
      if (slot.running) this.finish(slot, machineFault("the inspector closed"), new Error("the inspector closed"));
      slot.process?.kill();
    }
  }

  private enqueue(tenant: string, job: Job): void {
    this.queue.push(tenant, job);
    this.warm();
    this.pump();
    this.preemptOverdue();
  }

  /**
   * Starts every process that is not running. A process starts in a second or more (more under
   * load), and a file given to a starting one waits that long, and the customer's next files behind
   * it: so all of them start at the first file, not each at the first file it gets.
   */
  private warm(): void {
    if (this.closed) return;
    for (const slot of this.slots) if (!slot.process?.connected) this.ensure(slot);
  }

  /** Starts waiting work on every idle process, in the queue's order (borrowing idle processes past a tenant's share). */
  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.running) continue;
      const next = this.queue.next({ borrow: this.borrowMs > 0, mayBorrow: (job) => !job.preempted });
      if (!next) return;
      this.start(slot, next.tenant, next.item, next.borrowed);
    }
  }

  /**
   * A file arrived and may be waiting within its tenant's share while another tenant's borrowed run,
   * past its PDF_INSPECT_BORROW_MS, holds a process: that run is stopped for it (one per arrival).
   */
  private preemptOverdue(): void {
    const slot = this.slots.find((s) => s.running?.borrowed && s.running.overdue && this.queue.waitsWithinShare(s.running.tenant));
    if (slot) this.preempt(slot);
  }

  /** A borrowed run has had its time: stopped now if another tenant's file waits within its share, else when one arrives. */
  private borrowDue(slot: Slot, id: number): void {
    const running = slot.running;
    if (running?.id !== id) return;
    running.overdue = true;
    if (this.queue.waitsWithinShare(running.tenant)) this.preempt(slot);
  }

  /** Stops a borrowed run (its process replaced) and puts its file back at the head of its tenant's queue. */
  private preempt(slot: Slot): void {
    const running = slot.running;
    if (!running) return;
    this.opts.onProblem?.("borrowed pdf inspection stopped for another customer's file; it runs again in its own turn", {
      tenant: running.tenant,
      borrowMs: this.borrowMs,
    });
    this.replace(slot);
    const job = this.release(slot);
    if (job) this.queue.pushFront(running.tenant, { ...job, preempted: true });
  }

  private start(slot: Slot, tenant: string, job: Job, borrowed: boolean): void {
    const child = this.ensure(slot);
    const id = this.nextId++;
    const timer = setTimeout(() => this.timedOut(slot, id), this.opts.timeoutMs);
    const borrowTimer = borrowed ? setTimeout(() => this.borrowDue(slot, id), this.borrowMs) : undefined;
    slot.running = { id, job, tenant, child, timer, borrowed, borrowTimer };
    const req: InspectRequest | SealRequest =
      job.kind === "inspect" ? { id, path: job.path, maxInflatedBytes: this.maxInflatedBytes } : { id, op: "seal", path: job.path };
    child.send(req, (err) => {
      if (!err || slot.running?.id !== id) return;
      // The process was gone before it got the file: not the file's doing. Once more on a fresh process, then a fault.
      this.replace(slot);
      this.release(slot);
      if (!job.resent) this.enqueue(tenant, { ...job, resent: true });
      else answer(job, machineFault(`inspection could not start: ${err.message}`), new Error(`the check could not start: ${err.message}`));
    });
  }

  private timedOut(slot: Slot, id: number): void {
    if (slot.running?.id !== id) return;
    this.opts.onProblem?.("pdf inspection timed out; replacing its process", { timeoutMs: this.opts.timeoutMs, tenant: slot.running.tenant });
    // Killed first, so that the exit is not taken for a death of its own; the slot forks afresh for the next file.
    this.replace(slot);
    const detail = `it could not be opened within ${this.opts.timeoutMs} ms, the most one document may take (PDF_INSPECT_TIMEOUT_MS)`;
    this.finish(slot, tooCostly(detail), new Error(`the signature could not be checked within ${this.opts.timeoutMs} ms`));
  }

  /** Answers the slot's running job (with `verdict` or `seal`, by its kind). */
  private finish(slot: Slot, verdict: Verdict, seal: SealFinding | null | Error): void {
    const job = this.release(slot);
    if (job) answer(job, verdict, seal);
  }

  /** Frees the slot, hands back the job it was running, and (after the caller's answer) starts the next. */
  private release(slot: Slot): Job | undefined {
    const running = slot.running;
    if (!running) return undefined;
    slot.running = null;
    clearTimeout(running.timer);
    clearTimeout(running.borrowTimer);
    this.queue.done(running.tenant);
    queueMicrotask(() => this.pump());
    return running.job;
  }

  private ensure(slot: Slot): ChildProcess {
    if (slot.process?.connected) return slot.process;
    const child = fork(ENTRY, [], {
      cwd: REPO_ROOT,
      // The heap cap bounds what one document's objects may take (a flood of small objects is not caught by the inflation budget).
      execArgv: [...EXEC_ARGV, `--max-old-space-size=${this.maxHeapMb}`],
      serialization: "json",
      // Its stderr is read here, not inherited: a heap death writes a page of V8 diagnostics, which
      // becomes one log line (and, under Jest, would pass for the test worker's own death).
      stdio: ["ignore", "inherit", "pipe", "ipc"],
    });
    try {
      // Lowering one's own child's priority needs no privilege; a platform that refuses it just runs it at the gateway's.
      if (child.pid !== undefined) os.setPriority(child.pid, this.opts.nice ?? PDF_INSPECT_DEFAULTS.nice);
    } catch {}
    let stderrTail = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-4096);
    });
    child.on("message", (raw: unknown) => {
      answered = true;
      const running = slot.running;
      if (!running || running.child !== child) return;
      const { job } = running;
      if (job.kind === "seal") {
        const sealed = ZSealReply.safeParse(raw);
        if (sealed.success && sealed.data.id === running.id) {
          this.release(slot);
          job.resolve(sealed.data.error ? new Error(sealed.data.error) : sealed.data.seal);
        }
        return;
      }
      const reply = ZInspectReply.safeParse(raw);
      if (reply.success && reply.data.id === running.id) {
        this.release(slot);
        // A document refused for its cost is remembered like any other verdict: the same bomb again costs nothing.
        job.resolve({ result: reply.data.result, aboutTheFile: true });
      }
    });
    // A process that could not be started (or signalled): its file is answered as the machine's fault, not the file's.
    child.on("error", (err) => {
      this.opts.onProblem?.("pdf inspector process error", { error: err.message });
      if (slot.process === child) slot.process = null;
      if (slot.running?.child === child)
        this.finish(slot, machineFault(`inspection could not start: ${err.message}`), new Error(`the check could not start: ${err.message}`));
    });
    let answered = false;
    child.on("exit", (code, signal) => {
      if (slot.process === child) slot.process = null;
      if (this.closed) return;
      // Replaced at once when it had worked (a process that dies while starting is started again only for the next file: no loop).
      if (answered) setImmediate(() => this.warm());
      const outOfMemory = /heap out of memory|heap limit/i.test(stderrTail);
      const lastError = stderrTail.split("\n").find((l) => l.startsWith("FATAL ERROR") || l.includes("Error")) ?? null;
      this.opts.onProblem?.("pdf inspector process exited", { code, signal, outOfMemory, lastError });
      // It worked on one file only: that file killed it (out of memory, most likely). Nothing else is lost.
      if (slot.running?.child === child) {
        const how = signal ?? `exit ${code}`;
        const detail = outOfMemory
          ? `opening it needs more memory than one document may have (PDF_INSPECT_MAX_HEAP_MB, ${this.maxHeapMb} MiB): its inspector process ran out (${how})`
          : `its inspector process stopped while opening it (${how})`;
        this.finish(slot, tooCostly(detail), new Error(`the check stopped its process (${signal ?? `exit ${code}`})`));
      }
    });
    slot.process = child;
    return child;
  }

  private replace(slot: Slot): void {
    const old = slot.process;
    slot.process = null;
    old?.kill("SIGKILL");
  }

  private remember(sha256: string, result: PdfInspection): void {
    const max = this.opts.cacheSize ?? 1000;
    if (max <= 0) return;
    if (this.cache.size >= max) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(sha256, result);
  }
}

function answer(job: Job, verdict: Verdict, seal: SealFinding | null | Error): void {
  if (job.kind === "inspect") job.resolve(verdict);
  else job.resolve(seal);
}
