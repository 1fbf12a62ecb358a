import { fork, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { FairQueue } from "./fair-queue";
import type { PdfInspection } from "./inspect-pdf";
import { ZCancelledReply, ZInspectReply, ZSealReply, type CancelRequest, type InspectRequest, type SealFinding, type SealRequest } from "./messages";

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
  /**
   * Files of the customer a process works for sent to it ahead, to wait there behind its current one
   * (PDF_INSPECT_PREFETCH): the process goes on to the next as soon as it answers, without waiting
   * for the gateway's event loop to read the answer and send another (on a saturated gateway that
   * round trip, not the parse, bounded the inspection rate). Only while no other customer has a file
   * waiting; when one arrives, the files sent ahead that have not started are asked back to the queue.
   * 0: one file per process at a time, sent only once the one before is answered.
   */
  prefetch?: number;
  /** Scheduling niceness of the processes (PDF_INSPECT_NICE, 0-19; 0 by default): above 0 the gateway's own work goes first under CPU pressure. */
  nice?: number;
  /** Results remembered by content address: the same file uploaded again is not parsed again. */
  cacheSize?: number;
  onProblem?: (message: string, meta: Record<string, unknown>) => void;
}

export const PDF_INSPECT_DEFAULTS = { maxInflatedBytes: 64 * 2 ** 20, maxHeapMb: 384, perTenant: 1, nice: 0, borrowMs: 500, prefetch: 4 } as const;

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
  /** Its PDF_INSPECT_TIMEOUT_MS, set once its process works on it (it heads the slot's line). */
  timer?: NodeJS.Timeout;
  /** Started past its tenant's share, on a process nobody else had work for (or sent ahead behind such a run). */
  borrowed: boolean;
  /** Set when a borrowed run has had its PDF_INSPECT_BORROW_MS: another tenant's arrival stops it. */
  borrowTimer?: NodeJS.Timeout;
  overdue?: boolean;
  /** Sent ahead and since asked back (another tenant's file waits, or the file before it is slow); it may still have started. */
  recalled?: boolean;
  /** When its process began working on it (it heads the slot's line). */
  startedAt?: number;
  /** Worked on for PATIENCE_MS and still not answered: the files sent ahead behind it may go to an idle process. */
  slow?: boolean;
  /** Runs only while a file waits behind it (watchPatience). */
  slowTimer?: NodeJS.Timeout;
}

interface Slot {
  process: ChildProcess | null;
  /** What the process has been sent, in order: the first is the file it works on, the rest wait there (prefetch). */
  line: Running[];
}

/**
 * How long a process may work on one file before the files of its customer sent ahead behind it are
 * asked back to borrow an idle process. A tenant's next file goes first to the process already
 * working for it (one wake-up for both files of a create: a second process woken per create cost
 * 1.38 x the inspectors' CPU, bench/README.md round 8); an ordinary upload is answered well within
 * this, a slow one hands its followers on after it.
 */
const PATIENCE_MS = 25;

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
 * The process's heap flags: the cap, and where old-space collection starts. Given only a cap, V8
 * starts collecting the old space at a small size and grows that limit slowly: 25 full collections
 * (with their concurrent marking) in 1,400 ordinary files against 4 without the cap, about twice
 * the inspectors' CPU per create of the tree before the cap (bench/README.md, round 8). Starting at
 * 64 MB (at most half the cap) brings it back to 4, and the cap is the same.
 */
export function heapFlags(maxHeapMb: number): string[] {
  return [`--max-old-space-size=${maxHeapMb}`, `--initial-old-space-size=${Math.max(1, Math.min(64, Math.floor(maxHeapMb / 2)))}`];
}

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
  private readonly prefetchDepth: number;
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: PdfInspectorOptions) {
    this.slots = Array.from({ length: Math.max(1, opts.processes) }, () => ({ process: null, line: [] }));
    this.queue = new FairQueue(Math.max(1, opts.perTenant ?? PDF_INSPECT_DEFAULTS.perTenant));
    this.maxInflatedBytes = opts.maxInflatedBytes ?? PDF_INSPECT_DEFAULTS.maxInflatedBytes;
    this.maxHeapMb = opts.maxHeapMb ?? PDF_INSPECT_DEFAULTS.maxHeapMb;
    this.borrowMs = opts.borrowMs ?? PDF_INSPECT_DEFAULTS.borrowMs;
    this.prefetchDepth = Math.max(0, opts.prefetch ?? PDF_INSPECT_DEFAULTS.prefetch);
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

  /** Files each process has been sent and not answered: the one it works on and those waiting behind it. */
  get filesPerProcess(): number[] {
    return this.slots.map((slot) => slot.line.length);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.drain()) answer(job, machineFault("the inspector closed"), new Error("the inspector closed"));
    for (const slot of this.slots) {
      for (const running of [...slot.line]) {
        const job = this.release(slot, running);
        if (job) answer(job, machineFault("the inspector closed"), new Error("the inspector closed"));
      }
      slot.process?.kill();
    }
  }

  private enqueue(tenant: string, job: Job): void {
    this.queue.push(tenant, job);
    this.warm();
    this.pump();
    this.preemptOverdue();
    this.recall();
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

  /**
   * Starts waiting work within its tenant's share on every idle process, in the queue's order; then
   * sends busy processes more of their own tenant's files (prefetch); then lets what still waits
   * borrow the idle processes past its tenant's share, and asks back the files waiting behind a slow
   * file (PATIENCE_MS) so that they may borrow one too.
   */
  private pump(): void {
    if (this.closed) return;
    this.startIdle(false);
    this.prefetch();
    if (this.borrowMs <= 0) return;
    this.startIdle(true);
    this.unblockSlow();
  }

  private startIdle(borrow: boolean): void {
    for (const slot of this.slots) {
      if (slot.line.length > 0) continue;
      const next = this.queue.next({ borrow, mayBorrow: (job) => !job.preempted });
      if (!next) break;
      this.send(slot, next.tenant, next.item, next.borrowed);
    }
  }

  /** While a process is idle, the files sent ahead behind a slow one are asked back (to borrow it). */
  private unblockSlow(): void {
    if (!this.slots.some((s) => s.line.length === 0)) return;
    for (const slot of this.slots) if (slot.line[0]?.slow) this.askBack(slot, slot.line.slice(1));
  }

  /**
   * Sends each busy process up to PDF_INSPECT_PREFETCH more of the files of the tenant it works for,
   * while no other tenant has a file waiting (so no file ever waits inside a process behind another
   * tenant's). Only inspections: a /verify check keeps its one-at-a-time turn.
   */
  private prefetch(): void {
    if (this.prefetchDepth === 0) return;
    for (const slot of this.slots) {
      const head = slot.line[0];
      if (head?.job.kind !== "inspect" || head.slow || slot.line.some((r) => r.recalled)) continue;
      while (slot.line.length <= this.prefetchDepth && !this.queue.waitsOtherThan(head.tenant)) {
        const job = this.queue.takeFrom(head.tenant, (j) => j.kind === "inspect" && !j.preempted);
        if (!job) break;
        this.send(slot, head.tenant, job, head.borrowed);
      }
    }
  }

  /**
   * Another tenant's file waits: the files sent ahead to a process for a different tenant are asked
   * back (those not started come back with a cancel answer and go to the head of their tenant's queue),
   * so that the newcomer waits at most for the files being worked on, as without prefetch.
   */
  private recall(): void {
    for (const slot of this.slots)
      this.askBack(
        slot,
        slot.line.slice(1).filter((running) => this.queue.waitsOtherThan(running.tenant)),
      );
  }

  /** Asks the slot's process for files sent ahead that it has not started: those it hands back return to their queues. */
  private askBack(slot: Slot, waiting: Running[]): void {
    const ids: number[] = [];
    for (const running of waiting) {
      if (running.recalled) continue;
      running.recalled = true;
      ids.push(running.id);
    }
    if (ids.length === 0) return;
    const cancel: CancelRequest = { op: "cancel", ids };
    // A process gone meanwhile: its exit hands back what it held.
    slot.line[0]?.child.send(cancel, () => undefined);
  }

  /**
   * A file arrived and may be waiting within its tenant's share while another tenant's borrowed run,
   * past its PDF_INSPECT_BORROW_MS, holds a process: that run is stopped for it (one per arrival).
   */
  private preemptOverdue(): void {
    const slot = this.slots.find((s) => {
      const head = s.line[0];
      return head?.borrowed && head.overdue && this.queue.waitsWithinShare(head.tenant);
    });
    if (slot) this.preempt(slot);
  }

  /** A borrowed run has had its time: stopped now if another tenant's file waits within its share, else when one arrives. */
  private borrowDue(slot: Slot, id: number): void {
    const head = slot.line[0];
    if (head?.id !== id) return;
    head.overdue = true;
    if (this.queue.waitsWithinShare(head.tenant)) this.preempt(slot);
  }

  /** Stops a borrowed run (its process replaced) and puts its file back at the head of its tenant's queue, the files behind it too. */
  private preempt(slot: Slot): void {
    const head = slot.line[0];
    if (!head) return;
    this.opts.onProblem?.("borrowed pdf inspection stopped for another customer's file; it runs again in its own turn", {
      tenant: head.tenant,
      borrowMs: this.borrowMs,
    });
    this.replace(slot);
    this.requeueWaiting(slot);
    const job = this.release(slot, head);
    if (job) this.queue.pushFront(head.tenant, { ...job, preempted: true });
  }

  /** Sends a file to the slot's process: worked on at once when the line was empty, else after those before it. */
  private send(slot: Slot, tenant: string, job: Job, borrowed: boolean): void {
    const child = this.ensure(slot);
    const running: Running = { id: this.nextId++, job, tenant, child, borrowed };
    slot.line.push(running);
    if (slot.line.length === 1) this.begin(slot, running);
    else this.watchPatience(slot);
    const req: InspectRequest | SealRequest =
      job.kind === "inspect" ? { id: running.id, path: job.path, maxInflatedBytes: this.maxInflatedBytes } : { id: running.id, op: "seal", path: job.path };
    child.send(req, (err) => {
      if (!err || !slot.line.includes(running)) return;
      // The process was gone before it got the file: not the file's doing. Once more on a fresh
      // process, then a fault. Sent first, nothing else in its line had reached the process either.
      const first = slot.line[0] === running;
      const lost = first ? [...slot.line] : [running];
      if (first) this.replace(slot);
      for (const r of lost) {
        const again = this.release(slot, r);
        if (!again) continue;
        if (!again.resent) this.enqueue(r.tenant, { ...again, resent: true });
        else answer(again, machineFault(`inspection could not start: ${err.message}`), new Error(`the check could not start: ${err.message}`));
      }
    });
  }

  /** The process works on `running` from now: its time-out (and, when borrowed, its borrow time) starts. */
  private begin(slot: Slot, running: Running): void {
    running.startedAt = performance.now();
    running.timer = setTimeout(() => this.timedOut(slot, running.id), this.opts.timeoutMs);
    this.watchPatience(slot);
    if (running.borrowed) running.borrowTimer = setTimeout(() => this.borrowDue(slot, running.id), this.borrowMs);
  }

  /**
   * Starts the head's PATIENCE_MS once a file waits behind it (from when the head began): a file
   * alone in its process has nobody to hand on, so the common case arms no second timer per file.
   */
  private watchPatience(slot: Slot): void {
    const head = slot.line[0];
    if (!head || head.slow || head.slowTimer || head.startedAt === undefined || slot.line.length < 2 || this.borrowMs <= 0) return;
    head.slowTimer = setTimeout(
      () => {
        head.slow = true;
        this.pump();
      },
      Math.max(0, PATIENCE_MS - (performance.now() - head.startedAt)),
    );
  }

  private timedOut(slot: Slot, id: number): void {
    const head = slot.line[0];
    if (head?.id !== id) return;
    this.opts.onProblem?.("pdf inspection timed out; replacing its process", { timeoutMs: this.opts.timeoutMs, tenant: head.tenant });
    // Killed first, so that the exit is not taken for a death of its own; the slot forks afresh for the next file.
    this.replace(slot);
    const detail = `it could not be opened within ${this.opts.timeoutMs} ms, the most one document may take (PDF_INSPECT_TIMEOUT_MS)`;
    this.failHead(slot, tooCostly(detail), new Error(`the signature could not be checked within ${this.opts.timeoutMs} ms`));
  }

  /** The process on the slot's first file is gone because of it: that file is answered, the ones waiting behind it go back to the queue. */
  private failHead(slot: Slot, verdict: Verdict, seal: SealFinding | null | Error): void {
    const head = slot.line[0];
    if (!head) return;
    this.requeueWaiting(slot);
    const job = this.release(slot, head);
    if (job) answer(job, verdict, seal);
  }

  /** The files waiting behind the slot's first one (never started) go back to the head of their tenants' queues, in order. */
  private requeueWaiting(slot: Slot): void {
    for (const running of slot.line.slice(1).reverse()) {
      const job = this.release(slot, running);
      if (job) this.queue.pushFront(running.tenant, job);
    }
  }

  /**
   * Takes `running` off its slot and hands back its job; when it was the one being worked on, the
   * next in the line is now, and (after the caller's answer) waiting work is started.
   */
  private release(slot: Slot, running: Running): Job | undefined {
    const at = slot.line.indexOf(running);
    if (at < 0) return undefined;
    slot.line.splice(at, 1);
    clearTimeout(running.timer);
    clearTimeout(running.borrowTimer);
    clearTimeout(running.slowTimer);
    this.queue.done(running.tenant);
    const head = slot.line[0];
    if (at === 0 && head && head.timer === undefined) this.begin(slot, head);
    queueMicrotask(() => this.pump());
    return running.job;
  }

  private ensure(slot: Slot): ChildProcess {
    if (slot.process?.connected) return slot.process;
    const child = fork(ENTRY, [], {
      cwd: REPO_ROOT,
      // The heap cap bounds what one document's objects may take (a flood of small objects is not caught by the inflation budget).
      execArgv: [...EXEC_ARGV, ...heapFlags(this.maxHeapMb)],
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
      this.onReply(slot, child, raw);
    });
    // A process that could not be started (or signalled): its file is answered as the machine's fault, not the file's.
    child.on("error", (err) => {
      this.opts.onProblem?.("pdf inspector process error", { error: err.message });
      if (slot.process === child) slot.process = null;
      if (slot.line[0]?.child === child)
        this.failHead(slot, machineFault(`inspection could not start: ${err.message}`), new Error(`the check could not start: ${err.message}`));
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
      // It worked on one file only: that file killed it (out of memory, most likely). The files
      // waiting behind it go back to the queue; nothing else is lost.
      if (slot.line[0]?.child === child) {
        const how = signal ?? `exit ${code}`;
        const detail = outOfMemory
          ? `opening it needs more memory than one document may have (PDF_INSPECT_MAX_HEAP_MB, ${this.maxHeapMb} MiB): its inspector process ran out (${how})`
          : `its inspector process stopped while opening it (${how})`;
        this.failHead(slot, tooCostly(detail), new Error(`the check stopped its process (${signal ?? `exit ${code}`})`));
      }
    });
    slot.process = child;
    return child;
  }

  /** An answer from a slot's process: a file's verdict, a seal check, or a file sent ahead handed back unstarted. */
  private onReply(slot: Slot, child: ChildProcess, raw: unknown): void {
    const byId = (id: number) => slot.line.find((r) => r.id === id && r.child === child);
    // Only a message that says it is a cancel's answer is parsed as one: a failed zod parse per file
    // (every verdict tried as a cancel first) built an error object on the gateway's event loop.
    const cancelled = typeof raw === "object" && raw !== null && "cancelled" in raw ? ZCancelledReply.safeParse(raw) : undefined;
    if (cancelled?.success) {
      // Back to the head of their tenants' queues in the order they were sent (pushFront, last first).
      for (const id of [...cancelled.data.cancelled].reverse()) {
        const running = byId(id);
        const job = running && this.release(slot, running);
        if (running && job) this.queue.pushFront(running.tenant, job);
      }
      return;
    }
    const id = typeof raw === "object" && raw !== null && "id" in raw && typeof raw.id === "number" ? raw.id : undefined;
    const running = id === undefined ? undefined : byId(id);
    if (!running) return;
    const { job } = running;
    if (job.kind === "seal") {
      const sealed = ZSealReply.safeParse(raw);
      if (!sealed.success) return;
      this.release(slot, running);
      job.resolve(sealed.data.error ? new Error(sealed.data.error) : sealed.data.seal);
      return;
    }
    const reply = ZInspectReply.safeParse(raw);
    if (!reply.success) return;
    this.release(slot, running);
    // A document refused for its cost is remembered like any other verdict: the same bomb again costs nothing.
    job.resolve({ result: reply.data.result, aboutTheFile: true });
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
