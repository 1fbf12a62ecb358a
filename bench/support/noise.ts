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

function processCpuMs(pid: string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The pids of the bench's processes: this one, its descendants, and the run's PostgreSQL backends. */
function benchPids(runId: string): string[] {
  const parent = new Map<string, string>();
  const ours = new Set<string>([String(process.pid)]);
  const marker = `esign_bench_${runId}_`;
  const pids: string[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parent.set(pid, stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] ?? "");
      pids.push(pid);
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)) ours.add(pid);
    } catch {
      // gone meanwhile
    }
  }
  const isOurs = (pid: string, depth = 0): boolean => {
    if (ours.has(pid)) return true;
    const pp = parent.get(pid);
    if (!pp || pp === "0" || depth > 32) return false;
    const yes = isOurs(pp, depth + 1);
    if (yes) ours.add(pid);
    return yes;
  };
  return pids.filter((pid) => isOurs(pid));
}

/**
 * CPU milliseconds used so far by the bench's processes (benchPids). For a window in which they all
 * live (a step): a process that exits takes its CPU with it. Over a whole scenario use OwnCpu.
 */
export function benchCpuMs(runId: string): number {
  let total = 0;
  for (const pid of benchPids(runId)) {
    try {
      total += processCpuMs(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * The bench's CPU over a window in which its processes come and go (a scenario starts and stops its
 * services): sampled every second, per process, so a process that exits loses at most its last second
 * (the foreign share is then slightly high: it errs towards calling a run unreliable).
 */
export class OwnCpu {
  private readonly last = new Map<string, number>();
  private total = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly runId: string) {
    for (const pid of benchPids(runId)) {
      try {
        this.last.set(pid, processCpuMs(pid));
      } catch {
        // gone meanwhile
      }
    }
    this.timer = setInterval(() => this.sample(), 1000);
    this.timer.unref();
  }

  private sample(): void {
    for (const pid of benchPids(this.runId)) {
      try {
        const now = processCpuMs(pid);
        this.total += Math.max(0, now - (this.last.get(pid) ?? 0));
        this.last.set(pid, now);
      } catch {
        // gone meanwhile
      }
    }
  }

  /** CPU ms of the bench's processes since construction; stops sampling. */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.total;
  }
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
