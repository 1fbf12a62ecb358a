import { EsignApiError, EsignNetworkError, EsignResponseError, JobFailedError, JobTimeoutError } from "./errors";
import type { CompletedJob, Job } from "./schemas";

/** The spec asks clients to poll a job no more often than every 5 s (the service answers 429 past 20 a minute). */
export const JOB_POLL_SPACING_MS = 5_000;

export interface WaitForJobOptions {
  /** Give up after this long with JobTimeoutError. Default 10 minutes. */
  timeoutMs?: number;
  /** Aborting rejects at once with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Never poll sooner than this after the last answered poll of the job. Default 5000, the spacing
   * the spec asks for; lower it only against a test gateway without the poll limit.
   */
  minIntervalMs?: number;
  /** Upper bound of the growing delay between polls. Default 30000. */
  maxIntervalMs?: number;
  /** Growth of the delay after each answered poll that is not final. Default 1.5 (5 s, 7.5 s, 11.25 s, ... 30 s). */
  backoffFactor?: number;
  /** Called with every answered poll (progress reporting). */
  onPoll?: (job: Job) => void;
}

export interface JobPoller {
  getJob(uuid: string, payloadHash: string, options: { signal?: AbortSignal }): Promise<Job>;
  /** Date.now() when the last poll of this job was answered by this client, if any. */
  lastAnsweredPollAt(uuid: string): number | undefined;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_MAX_INTERVAL_MS = 30_000;
// With minIntervalMs 0 (tests) the delays still start somewhere and grow, rather than spin.
const SMALLEST_DELAY_MS = 100;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Worth another poll: rate limited, a server or gateway hiccup, or no answer at all. */
function isTransient(err: unknown): boolean {
  if (err instanceof EsignApiError) return err.status === 429 || err.status >= 500;
  return err instanceof EsignNetworkError;
}

class DeadlineReached extends Error {
  override readonly name = "DeadlineReached";
}

/**
 * Polls until the job is final. Spacing: the first poll goes out at once unless this client had a
 * poll of the job answered less than `minIntervalMs` ago; afterwards the delay starts at
 * `minIntervalMs` and grows by `backoffFactor` up to `maxIntervalMs`. A 429 waits its Retry-After;
 * 5xx and network failures are retried on the same schedule; other errors reject at once.
 */
export async function waitForJob(poller: JobPoller, uuid: string, payloadHash: string, options: WaitForJobOptions = {}): Promise<CompletedJob> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const minInterval = Math.max(0, options.minIntervalMs ?? JOB_POLL_SPACING_MS);
  const maxInterval = Math.max(minInterval, options.maxIntervalMs ?? DEFAULT_MAX_INTERVAL_MS);
  const factor = Math.max(1, options.backoffFactor ?? 1.5);
  const base = Math.max(minInterval, SMALLEST_DELAY_MS);
  const delayAfter = (step: number) => Math.min(maxInterval, Math.max(minInterval, base * factor ** step));

  const deadline = new AbortController();
  const deadlineTimer = setTimeout(() => deadline.abort(new DeadlineReached()), timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;

  let lastJob: Job | undefined;
  let lastError: unknown;
  let notBefore = 0;
  let step = 0;
  try {
    for (;;) {
      const last = poller.lastAnsweredPollAt(uuid);
      const wakeAt = Math.max(notBefore, last === undefined ? 0 : last + minInterval);
      // A timer may fire a millisecond before Date.now() reaches wakeAt (seen: a poll 4,999 ms after
      // the last answer): never poll early.
      while (Date.now() < wakeAt) await sleep(wakeAt - Date.now(), signal);
      signal.throwIfAborted();
      let job: Job;
      try {
        job = await poller.getJob(uuid, payloadHash, { signal });
      } catch (err) {
        if (signal.aborted || !isTransient(err)) throw err;
        lastError = err;
        const retryAfter = err instanceof EsignApiError ? err.retryAfterSeconds : undefined;
        notBefore = Date.now() + (retryAfter !== undefined ? retryAfter * 1000 : delayAfter(step++));
        continue;
      }
      lastJob = job;
      options.onPoll?.(job);
      if (job.jobStatus === "completed") {
        if (job.result === null) throw new EsignResponseError(`job ${uuid} is completed but has no result`, 200, job);
        return job as CompletedJob;
      }
      if (job.jobStatus === "failed" || job.jobStatus === "aborted_duplicated") throw new JobFailedError(job);
      notBefore = Date.now() + delayAfter(step++);
    }
  } catch (err) {
    if (deadline.signal.aborted && !options.signal?.aborted) {
      throw new JobTimeoutError(uuid, timeoutMs, lastJob, { cause: lastError ?? err });
    }
    throw err;
  } finally {
    clearTimeout(deadlineTimer);
  }
}
