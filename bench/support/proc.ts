import { readdirSync, readFileSync, writeFileSync } from "node:fs";

/* Process figures straight from Linux's /proc, so the measured service needs no instrumentation. */

const TICKS_PER_SECOND = 100; // USER_HZ; 100 on every Linux that Node supports

/** CPU time the process (all threads) has used so far in its own code and in the kernel, in ms. */
export function cpuTimesMs(pid: number): { userMs: number; kernelMs: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name may contain spaces and parentheses: fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { userMs: (Number(fields[11]) * 1000) / TICKS_PER_SECOND, kernelMs: (Number(fields[12]) * 1000) / TICKS_PER_SECOND };
}

/** CPU time (user + system, all threads) the process has used so far, in ms. */
export function cpuMs(pid: number): number {
  const { userMs, kernelMs } = cpuTimesMs(pid);
  return userMs + kernelMs;
}

/**
 * CPU time used so far by the process's live children (the gateway's PDF inspectors), in ms. A
 * child's time is not in its parent's utime/stime until it exits, so the bench reads it here.
 */
export function childrenCpuMs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let children: string;
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8");
    } catch {
      continue;
    }
    for (const child of children.split(" ").filter(Boolean)) {
      try {
        total += cpuMs(Number(child));
      } catch {
        // exited meanwhile
      }
    }
  }
  return total;
}

/** CPU time used so far per thread of the process (name from /proc/<pid>/task/<tid>/comm), in ms. */
export function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
      // Same-named threads (V8's workers, libuv's pool) are summed.
      out.set(name, (out.get(name) ?? 0) + ms);
    } catch {
      // thread gone
    }
  }
  return out;
}

/** Resident set size now (VmRSS) and its peak since start or the last reset (VmHWM), in bytes. */
export function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** Resets VmHWM to the current RSS (Linux >= 4.0); false where the kernel refuses. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples a process's CPU use over a window: share of one core, in percent, and the same per thread
 * name (the JS thread is the process's own name, e.g. "node"; V8's helpers are "V8 DefaultWorke").
 */
export async function cpuPercentOver(
  pid: number,
  windowMs: number,
): Promise<{ percent: number; cpuMs: number; wallMs: number; byThread: Record<string, number> }> {
  const c0 = cpuMs(pid);
  const th0 = threadCpuMs(pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, windowMs));
  const used = cpuMs(pid) - c0;
  const wall = performance.now() - t0;
  const byThread: Record<string, number> = {};
  for (const [name, ms] of threadCpuMs(pid)) {
    const delta = ms - (th0.get(name) ?? 0);
    if (delta > 0) byThread[name] = Math.round((delta / wall) * 10000) / 100;
  }
  return { percent: Math.round((used / wall) * 10000) / 100, cpuMs: used, wallMs: Math.round(wall), byThread };
}

/** Polls RSS every `everyMs` until stopped; returns the highest sample (catches peaks VmHWM would too). */
export function sampleRss(pid: number, everyMs = 5): { stop(): { peak: number; samples: number } } {
  let peak = 0;
  let samples = 0;
  const timer = setInterval(() => {
    try {
      const { rss } = memory(pid);
      samples += 1;
      if (rss > peak) peak = rss;
    } catch {
      // process gone
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { peak, samples };
    },
  };
}

/** Whole-machine CPU counters (all cores), for noting how busy the shared machine was. */
export function machineCpu(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** machineCpu's counters (USER_HZ ticks of /proc/stat) in milliseconds. */
export function machineCpuMs(ticks: number): number {
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * Linux's pressure stall information (PSI) counters: microseconds in which at least one task waited
 * for a CPU (`cpuSome`), for I/O (`ioSome`), or in which every task waited for I/O (`ioFull`).
 * A latency spike on a machine that is mostly idle is most often a stall (a shared disk's flush, a
 * neighbour's burst): the report shows how much of each scenario was stalled, so such spikes are not
 * mistaken for the system's own. Undefined where the kernel has no PSI.
 */
export interface PressureTotals {
  cpuSome: number;
  ioSome: number;
  ioFull: number;
}

export function pressureTotals(): PressureTotals | undefined {
  try {
    const cpu = parsePressure(readFileSync("/proc/pressure/cpu", "utf8"));
    const io = parsePressure(readFileSync("/proc/pressure/io", "utf8"));
    if (cpu.some === undefined || io.some === undefined || io.full === undefined) return undefined;
    return { cpuSome: cpu.some, ioSome: io.some, ioFull: io.full };
  } catch {
    return undefined;
  }
}

/** The `total=` of each line of a /proc/pressure file ("some avg10=.. avg60=.. avg300=.. total=N"). */
export function parsePressure(text: string): { some?: number; full?: number } {
  const out: { some?: number; full?: number } = {};
  for (const line of text.split("\n")) {
    const m = /^(some|full)\b.*\btotal=(\d+)/.exec(line.trim());
    if (m) out[m[1] as "some" | "full"] = Number(m[2]);
  }
  return out;
}

/** Share of the wall time (percent, one decimal) that each counter was stalled between two readings. */
export function pressurePercent(before: PressureTotals, after: PressureTotals, wallMs: number): PressureTotals {
  const pct = (us: number) => Math.round((us / 1000 / Math.max(1, wallMs)) * 1000) / 10;
  return { cpuSome: pct(after.cpuSome - before.cpuSome), ioSome: pct(after.ioSome - before.ioSome), ioFull: pct(after.ioFull - before.ioFull) };
}

/** One line for a log or a report: what share of the time the machine was stalled. */
export function stallSummary(p: PressureTotals): string {
  return `some task waited for I/O ${p.ioSome}% of the time (every task ${p.ioFull}%) and for a CPU ${p.cpuSome}% (Linux PSI)`;
}
