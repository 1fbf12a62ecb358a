import { readdirSync, readFileSync } from "node:fs";
import { cpuTimesMs } from "./proc";
import type { BenchProcess } from "./services";
import { round } from "./stats";

/*
 * What a process's CPU in a step was made of: time in its own code against time in the kernel (user
 * and system time of /proc/<pid>/stat), how often its threads gave up or lost a core (context
 * switches, /proc/<pid>/task/<tid>/status), and, for a service, V8's garbage collection (prom-client's
 * `nodejs_gc_duration_seconds`, from the /metrics text the step scrapes outside its CPU window). Round 21 saw one process at
 * a time get 1.4-1.7 x dearer per create for minutes on unchanged code while the cores kept their
 * speed: these figures say whether such a shift is in the kernel (more wake-ups, socket writes), in
 * the collector, or in the code itself.
 */

export interface Anatomy {
  userMs: number;
  kernelMs: number;
  /** Voluntary context switches of all threads: waits for I/O, a lock, a peer's answer. */
  voluntary: number;
  /** Involuntary ones: the scheduler took the core away. */
  involuntary: number;
  /** V8's collections since start (services only; undefined for a process without /metrics). */
  gcMs?: number;
}

function counters(pid: number): Omit<Anatomy, "gcMs"> {
  let voluntary = 0;
  let involuntary = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8");
      voluntary += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      involuntary += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // thread gone
    }
  }
  return { ...cpuTimesMs(pid), voluntary, involuntary };
}

/** Milliseconds of garbage collection since start in a service's /metrics text; undefined without one. */
export function gcMsIn(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  let seconds = 0;
  for (const m of text.matchAll(/^nodejs_gc_duration_seconds_sum(?:\{[^}]*\})?\s+(\S+)$/gm)) seconds += Number(m[1]);
  return seconds * 1000;
}

/** Each process's /proc counters now. */
export function anatomyOf(procs: readonly BenchProcess[]): Omit<Anatomy, "gcMs">[] {
  return procs.map((p) => counters(p.pid));
}

/** Per process name, the step's anatomy per unit of work (a create): ms of user, kernel and GC time, switches. */
export function anatomyPer(
  procs: readonly BenchProcess[],
  before: readonly Omit<Anatomy, "gcMs">[],
  after: readonly Omit<Anatomy, "gcMs">[],
  gcBefore: readonly (number | undefined)[],
  gcAfter: readonly (number | undefined)[],
  units: number,
): Record<string, Anatomy> {
  const n = Math.max(1, units);
  return Object.fromEntries(
    procs.map((p, i) => {
      const a = before[i]!;
      const b = after[i]!;
      const g0 = gcBefore[i];
      const g1 = gcAfter[i];
      const per: Anatomy = {
        userMs: round((b.userMs - a.userMs) / n, 2),
        kernelMs: round((b.kernelMs - a.kernelMs) / n, 2),
        voluntary: round((b.voluntary - a.voluntary) / n, 1),
        involuntary: round((b.involuntary - a.involuntary) / n, 1),
        ...(g0 !== undefined && g1 !== undefined ? { gcMs: round((g1 - g0) / n, 2) } : {}),
      };
      return [p.name, per];
    }),
  );
}

/** "user / kernel / GC ms, switches voluntary + involuntary" of one process's anatomy. */
export function anatomyText(a: Anatomy): string {
  return `${a.userMs} / ${a.kernelMs} / ${a.gcMs ?? "-"} ms, ${a.voluntary} + ${a.involuntary} switches`;
}
