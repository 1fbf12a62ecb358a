import { spawn, type ChildProcess } from "node:child_process";
import { cpuMs } from "./proc";
import { percentiles } from "./stats";

/*
 * How fast the machine's cores run during a step: the CPU time (not wall time: waiting for a core is
 * not in it) that two fixed pieces of work take in a small child process, every PERIOD_MS: a loop in
 * registers (the core's own speed) and a walk through memory (the caches' and the memory bus').
 * On this workplace's VMs the CPU time of unchanged code moved by 1.4-1.7 x between steps minutes
 * apart (bench/README.md round 21: the gateway alone, and the bare baseline across its own runs),
 * which no figure of the bench could tell from a change of the code. The probe's figure is that
 * speed: the same work, so a step whose probe reads 1.5 x the others ran on slower cores. The
 * scheduler puts the probe on either core, so a step where one core alone was slow shows in the
 * upper percentile (p90) rather than the median. About 1.5% of a core (3 ms of work every 200 ms), which the step takes out of the
 * bench's own CPU (`cpuMs`): it is neither side's work.
 */

const PERIOD_MS = 200;
/** Samples discarded at the start: the loop's first runs are interpreted, not yet compiled. */
const WARM_UP_SAMPLES = 3;

// The child: the two pieces of work, each one's own CPU time (process.cpuUsage, microseconds) written
// per run. Their results feed the next run, so neither can be optimized away.
const CHILD = `
let x = 1;
const compute = () => { for (let i = 0; i < 200_000; i++) x = (Math.imul(x, 31) + i) | 0; };
// A walk through 16 MiB in an order the prefetcher cannot guess: what the caches and the memory
// bus give this core (a neighbour's load shows there first, not in the register loop above).
const ring = new Int32Array(4 * 1024 * 1024);
// One cycle through every slot (Sattolo's shuffle), so the walk never settles into a cached corner.
for (let i = 0; i < ring.length; i++) ring[i] = i;
for (let i = ring.length - 1, seed = 12345; i > 0; i--) {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  const k = seed % i, t = ring[i]; ring[i] = ring[k]; ring[k] = t;
}
const memory = () => { let j = x & (ring.length - 1); for (let i = 0; i < 10_000; i++) j = ring[j]; x ^= j; };
const timed = (fn) => { const before = process.cpuUsage(); fn(); const used = process.cpuUsage(before); return used.user + used.system; };
setInterval(() => process.stdout.write(timed(compute) + " " + timed(memory) + "\\n"), Number(process.argv[1]));
`;

export interface CpuSpeed {
  /** CPU microseconds of the register loop: median and 90th percentile of the step's samples. */
  medianUs: number;
  p90Us: number;
  /** The same of the memory walk. */
  memoryMedianUs: number;
  memoryP90Us: number;
  samples: number;
}

export class CpuSpeedProbe {
  private readonly child: ChildProcess;
  private readonly samples: number[] = [];
  private readonly memorySamples: number[] = [];
  private pending = "";

  constructor() {
    this.child = spawn(process.execPath, ["-e", CHILD, String(PERIOD_MS)], { stdio: ["ignore", "pipe", "ignore"] });
    this.child.stdout?.on("data", (d: Buffer) => {
      const lines = (this.pending + d.toString()).split("\n");
      this.pending = lines.pop() ?? "";
      for (const line of lines) {
        const [compute, memory] = line.split(" ").map(Number);
        if (compute! > 0 && memory! > 0) {
          this.samples.push(compute!);
          this.memorySamples.push(memory!);
        }
      }
    });
  }

  /** The probe's own CPU milliseconds so far (0 once it is gone). */
  cpuMs(): number {
    try {
      return this.child.pid === undefined ? 0 : cpuMs(this.child.pid);
    } catch {
      return 0;
    }
  }

  /** Ends the probe; its figures over the step (zero samples: the step was shorter than the warm-up). */
  stop(): CpuSpeed {
    this.child.kill("SIGKILL");
    const kept = this.samples.slice(WARM_UP_SAMPLES);
    if (kept.length === 0) return { medianUs: 0, p90Us: 0, memoryMedianUs: 0, memoryP90Us: 0, samples: 0 };
    const p = percentiles(kept);
    const m = percentiles(this.memorySamples.slice(WARM_UP_SAMPLES));
    return { medianUs: Math.round(p.p50), p90Us: Math.round(p.p90), memoryMedianUs: Math.round(m.p50), memoryP90Us: Math.round(m.p90), samples: kept.length };
  }
}
