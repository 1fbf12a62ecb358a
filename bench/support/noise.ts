import { readdirSync, readFileSync } from "node:fs";
import { machineCpuMs, type PressureTotals } from "./proc";
import { median, round } from "./stats";

/*
 * Whether a scenario's figures can be trusted on a shared machine. A verdict (pass / short) is only
 * given when the machine was ours: otherwise the scenario's targets read UNRELIABLE, with the reason,
 * and the run must be repeated on a quiet machine. Three signs, each with its threshold below:
 *
 * - Foreign CPU: the machine's busy time minus the bench's own (this process and every process under
 *   it: services, baselines, PDF inspectors, receiver, the private redis-server) and minus the
 *   PostgreSQL backends of the run's databases (their process title names the database). What is left
 *   is someone else's work competing for the two cores: above FOREIGN_CPU_LIMIT_PERCENT of the
 *   machine, the system and its baseline did not run on the same machine in their interleaved steps.
 * - I/O stalls (Linux PSI "some" for I/O): the machine's disk stalled every task needing it - a
 *   neighbour's flush; seen at 88% during one run's cleanup. Above IO_STALL_LIMIT_PERCENT.
 *   (CPU pressure is not a sign: the bench saturates the cores itself at its top steps.)
 * - The baseline's own spread: the bare baseline does the same work each time, so repeats of one of
 *   its steps that disagree (one passes the target, another misses: more than BASELINE_FLIPS_LIMIT
 *   steps, or the step its maximum rests on) or a throughput or CPU figure of it whose repeats range
 *   wider than BASELINE_SPREAD_LIMIT ((max - min) / median) measure the machine, not the code. Each
 *   scenario states its own (`baselineNoise`), with these limits.
 */

export const FOREIGN_CPU_LIMIT_PERCENT = 15;
export const IO_STALL_LIMIT_PERCENT = 10;
/** A throughput or CPU figure of the baseline whose repeats range wider than this share of their median. */
export const BASELINE_SPREAD_LIMIT = 0.3;
/** Steps of the baseline whose repeats disagree (one passes, another misses) beyond this many. */
export const BASELINE_FLIPS_LIMIT = 1;

export interface Reliability {
  reliable: boolean;
  /** Why not (empty when reliable). */
  reasons: string[];
  /** Share of all cores busy with work that was not the bench's, during the scenario (percent). */
  foreignCpuPercent?: number;
  ioStallPercent?: number;
}

const TICKS_PER_SECOND = 100;

/** utime + stime of a process, and with `reaped` also cutime + cstime: its children that exited and were waited for. */
function processCpuMs(pid: string, reaped = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** The bench's processes: this one's descendants (`tree`), and the run's PostgreSQL backends (`postgres`). */
function benchPids(runId: string): { tree: string[]; postgres: string[] } {
  const parent = new Map<string, string>();
  const self = String(process.pid);
  const marker = `esign_bench_${runId}_`;
  const postgres: string[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parent.set(pid, stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] ?? "");
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)) postgres.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid: string): boolean => {
    for (let p = parent.get(pid), depth = 0; p && p !== "0" && depth < 32; p = parent.get(p), depth++) if (p === self) return true;
    return false;
  };
  return { tree: [...parent.keys()].filter(under), postgres: postgres.filter((pid) => !under(pid)) };
}

/**
 * CPU milliseconds of the bench's process tree so far: this process with every descendant that exited
 * (a reaped child's time is in its parent's cutime/cstime: services in the bench's, PDF inspectors in
 * the gateway's), plus the live descendants with theirs, plus the run's PostgreSQL backends now alive.
 * Exact for the tree across processes coming and going; a backend that exits takes its time with it
 * (OwnCpu samples them every second for that).
 */
function treeCpuMs(pids: { tree: string[] }): number {
  let total = processCpuMs(String(process.pid), true);
  for (const pid of pids.tree) {
    try {
      total += processCpuMs(pid, true);
    } catch {
      // exited meanwhile: reaped, its time is in its parent's now or soon
    }
  }
  return total;
}

/**
 * The bench's CPU over a scenario, in which its processes come and go: the process tree's from two
 * readings (exact: exited children's time is in their parents'), the run's PostgreSQL backends' read
 * every second (a backend that exits loses at most its last second: the foreign share is then slightly
 * high, which errs towards calling a run unreliable); new backends are looked for every RESCAN_EVERY
 * seconds (a scan of /proc costs ~10 ms of CPU: ~0.3% of a core in the load generator, with the reads).
 */
export class OwnCpu {
  private readonly treeStart: number;
  /** Each live process of the tree at the start: its part (partOf) and its own CPU then. */
  private readonly partsStart = new Map<string, { part: string; ms: number }>();
  private readonly last = new Map<string, number>();
  private postgres = 0;
  private ticks = 0;
  private readonly timer: NodeJS.Timeout;
  private static readonly RESCAN_EVERY = 5;

  constructor(private readonly runId: string) {
    const pids = benchPids(runId);
    this.treeStart = treeCpuMs(pids);
    for (const pid of [String(process.pid), ...pids.tree]) {
      try {
        this.partsStart.set(pid, { part: partOf(pid), ms: processCpuMs(pid) });
      } catch {
        // gone meanwhile
      }
    }
    for (const pid of pids.postgres) {
      try {
        this.last.set(pid, processCpuMs(pid));
      } catch {
        // gone meanwhile
      }
    }
    this.timer = setInterval(() => this.sample(this.ticks++ % OwnCpu.RESCAN_EVERY === OwnCpu.RESCAN_EVERY - 1), 1000);
    this.timer.unref();
  }

  private sample(rescan: boolean): void {
    const pids = new Set([...this.last.keys(), ...(rescan ? benchPids(this.runId).postgres : [])]);
    for (const pid of pids) {
      try {
        const now = processCpuMs(pid);
        this.postgres += Math.max(0, now - (this.last.get(pid) ?? 0));
        this.last.set(pid, now);
      } catch {
        this.last.delete(pid); // exited: its time up to the last reading is counted
      }
    }
  }

  /** CPU ms of the bench's processes since construction; stops sampling. */
  stop(): number {
    return this.stopByPart().total;
  }

  /**
   * The same, and how it splits: each process alive at both ends by its part (a service, the PDF
   * inspectors, redis-server, the load generator - this process), the run's PostgreSQL backends, and
   * `other`: whatever came or went in between (a process that started or exited, reaped children).
   */
  stopByPart(): { total: number; parts: Record<string, number> } {
    clearInterval(this.timer);
    this.sample(true);
    const pids = benchPids(this.runId);
    const total = treeCpuMs(pids) - this.treeStart + this.postgres;
    const parts: Record<string, number> = { postgres: this.postgres };
    for (const [pid, start] of this.partsStart) {
      try {
        parts[start.part] = (parts[start.part] ?? 0) + processCpuMs(pid) - start.ms;
      } catch {
        // exited in between: in `other`
      }
    }
    parts.other = total - Object.values(parts).reduce((a, b) => a + b, 0);
    return { total, parts };
  }
}

/** What a process of the bench's tree is, for the CPU split: from its command line. */
function partOf(pid: string): string {
  if (pid === String(process.pid)) return "load generator";
  let cmd = "";
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "other";
  }
  if (cmd.includes("redis-server")) return "redis";
  if (/inspector/i.test(cmd)) return "pdf inspectors";
  const service = /services\/([a-z-]+)\//.exec(cmd)?.[1];
  if (service) return service;
  const baseline = /baselines\/([a-z-]+)/.exec(cmd)?.[1];
  if (baseline) return baseline;
  return "other";
}

/** Share of all cores (percent) busy with someone else's work over a window. */
export function foreignCpuPercent(before: { busy: number; total: number }, after: { busy: number; total: number }, ownMs: number): number {
  const total = machineCpuMs(after.total - before.total);
  if (total <= 0) return 0;
  const foreign = Math.max(0, machineCpuMs(after.busy - before.busy) - ownMs);
  return round((foreign / total) * 100, 1);
}

/** (max - min) / median of some repeats of one measurement; 0 for fewer than two. */
export function relativeSpread(values: readonly number[]): number {
  const finite = values.filter((v) => Number.isFinite(v));
  if (values.length < 2) return 0;
  if (finite.length < values.length) return Infinity;
  const m = median(finite);
  return m > 0 ? round((Math.max(...finite) - Math.min(...finite)) / m, 2) : 0;
}

/** min / median / max of repeats, for a report line. */
export function spread(values: readonly number[], unit = ""): string {
  if (values.length === 0) return "n/a";
  const s = [...values].sort((x, y) => x - y);
  return `${s[0]} / ${round(median(s), 2)} / ${s[s.length - 1]}${unit} (min / median / max of ${s.length})`;
}

export function judge(foreignCpu: number | undefined, stalls: PressureTotals | undefined, baselineNoise: readonly string[] = []): Reliability {
  const reasons: string[] = [];
  if (foreignCpu !== undefined && foreignCpu > FOREIGN_CPU_LIMIT_PERCENT)
    reasons.push(`other work used ${foreignCpu}% of the machine (limit ${FOREIGN_CPU_LIMIT_PERCENT}%)`);
  if (stalls && stalls.ioSome > IO_STALL_LIMIT_PERCENT) reasons.push(`I/O stalled ${stalls.ioSome}% of the time (limit ${IO_STALL_LIMIT_PERCENT}%)`);
  reasons.push(...baselineNoise);
  return { reliable: reasons.length === 0, reasons, foreignCpuPercent: foreignCpu, ioStallPercent: stalls?.ioSome };
}

/** The reason a baseline figure's repeats make a scenario unreliable, if they do. */
export function spreadReason(what: string, values: readonly number[]): string[] {
  const r = relativeSpread(values);
  return r > BASELINE_SPREAD_LIMIT
    ? [`${what} spread ${Number.isFinite(r) ? `${r} x its median` : "to a failure"} over its repeats (${values.join(", ")}; limit ${BASELINE_SPREAD_LIMIT})`]
    : [];
}
