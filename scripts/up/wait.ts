import { step } from "./output";

export type ProbeResult = { ready: true } | { ready: false; reason: string };
export type Probe = () => Promise<ProbeResult>;

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Stops waiting early, e.g. when the services are being shut down. */
  signal?: AbortSignal;
  /** Reasons that will not go away by waiting (a wrong password): report them at once. */
  permanent?: RegExp;
}

const PROGRESS_EVERY_MS = 5000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Turns a thrown error into a "not yet" answer, so a probe never has to catch its own errors. */
export async function probeSafely(probe: () => Promise<unknown>): Promise<ProbeResult> {
  try {
    await probe();
    return { ready: true };
  } catch (err) {
    return { ready: false, reason: err instanceof Error ? err.message || err.name : String(err) };
  }
}

/**
 * Polls until the probe answers or the time is up. A line every few seconds shows the last reason,
 * so a slow start looks different from a hang; the last reason is returned for the error message.
 */
export async function waitUntil(label: string, probe: Probe, options: WaitOptions): Promise<ProbeResult> {
  const started = Date.now();
  let lastProgress = 0;
  let last: ProbeResult = { ready: false, reason: "not checked yet" };
  while (!options.signal?.aborted) {
    last = await probe();
    if (last.ready || options.permanent?.test(last.reason)) return last;
    const elapsed = Date.now() - started;
    if (elapsed >= options.timeoutMs) return last;
    if (elapsed - lastProgress >= PROGRESS_EVERY_MS || lastProgress === 0) {
      lastProgress = Math.max(elapsed, 1);
      step(`waiting for ${label}: ${last.reason} (${Math.round(elapsed / 1000)}s of ${options.timeoutMs / 1000}s)`);
    }
    await sleep(options.intervalMs ?? 500);
  }
  return { ready: false, reason: "stopped" };
}
