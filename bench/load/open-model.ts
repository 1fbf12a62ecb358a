import { performance } from "node:perf_hooks";
import { percentiles, type Percentiles } from "../support/stats";

/*
 * Open-model load: requests arrive at a fixed rate whatever the system does, so a slow answer
 * cannot slow the arrivals down and hide itself (no coordinated omission). Every latency is measured
 * from the request's INTENDED send time, so lateness of the generator itself (event-loop lag, a full
 * connection pool) counts against the system instead of silently shifting the schedule.
 */

type Callback = () => void;

interface Entry {
  at: number;
  cb: Callback;
  cancelled: boolean;
}

/**
 * A hashed timer wheel on performance.now() (1 ms ticks by default). Thousands of arrivals and
 * timeouts per second cost one Node timer, armed for the next non-empty slot, instead of one timer
 * each. Entries due now (or in the past) fire in the current pass, in time order within a slot.
 */
export class TimerWheel {
  private readonly slots: Entry[][];
  private cursor: number; // last tick processed
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private driving = false;
  private driveNow = 0;
  private dueNow: Entry[] = [];

  constructor(
    private readonly tickMs = 1,
    slotCount = 1024,
  ) {
    this.slots = Array.from({ length: slotCount }, () => []);
    this.cursor = Math.floor(performance.now() / tickMs) - 1;
  }

  get pending(): number {
    return this.size;
  }

  schedule(at: number, cb: Callback): { cancel(): void } {
    const entry: Entry = { at, cb, cancelled: false };
    this.size += 1;
    if (this.driving && at <= this.driveNow) {
      // Already due while a pass is running (several arrivals per tick): fire in this pass.
      this.dueNow.push(entry);
    } else {
      const tick = Math.max(Math.floor(at / this.tickMs), this.cursor + 1);
      this.slots[tick % this.slots.length]!.push(entry);
    }
    if (!this.driving) this.arm();
    return {
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  stop(): void {
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    for (const s of this.slots) s.length = 0;
    this.size = 0;
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.size === 0 || this.immediate) return;
    const next = this.nextDue();
    const delay = next - performance.now();
    // Node timers have 1 ms granularity and fire late rather than early: below a tick, spin on setImmediate.
    if (delay < this.tickMs) this.immediate = setImmediate(() => this.drive());
    else this.timer = setTimeout(() => this.drive(), Math.max(1, Math.floor(delay)));
  }

  /** Start of the first tick holding an entry of the current round (entries of later rounds wait). */
  private nextDue(): number {
    const n = this.slots.length;
    for (let i = 1; i <= n; i++) {
      const tick = this.cursor + i;
      const slot = this.slots[tick % n]!;
      for (const e of slot) if (!e.cancelled && Math.floor(e.at / this.tickMs) <= tick) return tick * this.tickMs;
    }
    return (this.cursor + n) * this.tickMs;
  }

  private drive(): void {
    this.immediate = undefined;
    this.timer = undefined;
    this.driving = true;
    try {
      const n = this.slots.length;
      for (;;) {
        this.driveNow = performance.now();
        const nowTick = Math.floor(this.driveNow / this.tickMs);
        if (this.cursor >= nowTick && this.dueNow.length === 0) break;
        // Every tick up to now, at most one full turn (older ticks share these slots).
        const from = Math.max(this.cursor + 1, nowTick - n + 1);
        for (let t = from; t <= nowTick; t++) {
          this.cursor = t;
          this.fireSlot(t, t % n, this.driveNow);
          this.fireDueNow();
        }
        this.cursor = Math.max(this.cursor, nowTick);
        this.fireDueNow();
      }
    } finally {
      this.driving = false;
      this.arm();
    }
  }

  private fireDueNow(): void {
    while (this.dueNow.length > 0) {
      const batch = this.dueNow.sort((a, b) => a.at - b.at);
      this.dueNow = [];
      for (const e of batch) {
        this.size -= 1;
        if (!e.cancelled) e.cb();
      }
    }
  }

  private fireSlot(tick: number, index: number, now: number): void {
    const slot = this.slots[index]!;
    if (slot.length === 0) return;
    const due: Entry[] = [];
    const carry: Entry[] = [];
    const later: Entry[] = [];
    for (const e of slot) {
      if (e.cancelled) this.size -= 1;
      else if (e.at <= now) due.push(e);
      else if (Math.floor(e.at / this.tickMs) <= tick) carry.push(e);
      else later.push(e);
    }
    this.slots[index] = later;
    // Due later within this very tick: never fire early, move them to the next tick (< 1 tick late).
    if (carry.length > 0) this.slots[(tick + 1) % this.slots.length]!.push(...carry);
    due.sort((a, b) => a.at - b.at);
    for (const e of due) {
      this.size -= 1;
      e.cb();
    }
  }
}

export interface Outcome {
  ok: boolean;
  /** Short reason for a failure (HTTP status, error code). */
  detail?: string;
}

export interface OpenModelOptions {
  /** Arrivals per second. */
  rate: number;
  durationMs: number;
  /** Arrivals beyond this many outstanding requests are dropped and counted as failures. */
  maxInFlight?: number;
  /** After the last arrival, how long outstanding requests may take before they count as timed out. */
  drainTimeoutMs?: number;
  /** "uniform": exactly every 1/rate s; "poisson": exponential gaps with the same mean rate. */
  arrivals?: "uniform" | "poisson";
  /** Sends request `i`; `intendedAt` is its intended send time in epoch ms. */
  fire: (i: number, intendedAt: number) => Promise<Outcome>;
}

export interface OpenModelResult {
  rate: number;
  durationMs: number;
  intended: number;
  completed: number;
  ok: number;
  failed: number;
  dropped: number;
  timedOut: number;
  /** Successful answers per second over the arrival window (what the system sustained). */
  throughput: number;
  /** From intended send time to the answer; failures count as Infinity, so p99 is honest. */
  latency: Percentiles;
  /** How late the generator actually sent compared with the intended time. */
  sendLag: Percentiles;
  failures: Record<string, number>;
  /** Raw latencies (ms) of successful requests, for charts. */
  samples: Float64Array;
}

/** Runs one fixed-rate, open-model step and returns coordinated-omission-free latencies. */
export function runOpenModel(opts: OpenModelOptions): Promise<OpenModelResult> {
  const maxInFlight = opts.maxInFlight ?? 2000;
  const drainTimeoutMs = opts.drainTimeoutMs ?? 10_000;
  const interval = 1000 / opts.rate;
  const total = Math.max(1, Math.round((opts.rate * opts.durationMs) / 1000));
  const wheel = new TimerWheel();
  const latencies = new Float64Array(total).fill(Infinity);
  const settled = new Uint8Array(total);
  const lags: number[] = [];
  const failures: Record<string, number> = {};
  let inFlight = 0;
  let done = 0;
  let ok = 0;
  let failed = 0;
  let dropped = 0;
  const start = performance.now() + 20;
  const epochStart = performance.timeOrigin + start;
  let nextAt = start;

  return new Promise((resolve) => {
    let drainTimer: { cancel(): void } | undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      drainTimer?.cancel();
      wheel.stop();
      let timedOut = 0;
      for (let i = 0; i < total; i++) if (!settled[i]) timedOut += 1;
      if (timedOut > 0) failures.timeout = (failures.timeout ?? 0) + timedOut;
      const okSamples = latencies.filter((v) => Number.isFinite(v));
      resolve({
        rate: opts.rate,
        durationMs: opts.durationMs,
        intended: total,
        completed: done,
        ok,
        failed,
        dropped,
        timedOut,
        throughput: Math.round((ok / (total * interval)) * 1000 * 100) / 100,
        latency: percentiles(latencies),
        sendLag: percentiles(lags),
        failures,
        samples: okSamples,
      });
    };
    const settle = (i: number, outcome: Outcome, intended: number) => {
      if (settled[i] || finished) return;
      settled[i] = 1;
      inFlight -= 1;
      done += 1;
      const latency = performance.now() - intended;
      if (outcome.ok) {
        ok += 1;
        latencies[i] = latency;
      } else {
        failed += 1;
        const key = outcome.detail ?? "error";
        failures[key] = (failures[key] ?? 0) + 1;
      }
      if (done + dropped === total) finish();
    };

    const arrive = (i: number, intended: number) => {
      lags.push(performance.now() - intended);
      if (i + 1 < total) {
        nextAt += opts.arrivals === "poisson" ? -Math.log(1 - Math.random()) * interval : interval;
        const next = i + 1;
        const at = nextAt;
        wheel.schedule(at, () => arrive(next, at));
      } else {
        drainTimer = wheel.schedule(performance.now() + drainTimeoutMs, finish);
      }
      if (inFlight >= maxInFlight) {
        dropped += 1;
        settled[i] = 1;
        failures.dropped = (failures.dropped ?? 0) + 1;
        if (done + dropped === total) finish();
        return;
      }
      inFlight += 1;
      let p: Promise<Outcome>;
      try {
        p = opts.fire(i, epochStart + (intended - start));
      } catch (err) {
        p = Promise.resolve({ ok: false, detail: (err as Error).message });
      }
      p.then(
        (o) => settle(i, o, intended),
        (err: unknown) => settle(i, { ok: false, detail: (err as { code?: string }).code ?? (err as Error).message }, intended),
      );
    };
    wheel.schedule(start, () => arrive(0, start));
  });
}

/** Compact form of a step for results JSON (drops the raw samples). */
export function summarize(r: OpenModelResult) {
  const { samples: _samples, ...rest } = r;
  return rest;
}
