import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fail, paint, step, type Color } from "./output";
import type { ServiceSpec } from "./services";

// Longer than the services' own 15s shutdown grace, so a slow but orderly stop is not cut short.
const KILL_AFTER_MS = 20_000;
const RELAY_WINDOW_MS = 2000;
const COLORS: Color[] = ["magenta", "blue", "yellow", "green", "red", "gray"];

export interface RestartPolicy {
  /** A run shorter than this counts as a failed start (a crash loop is made of them). */
  quickExitMs: number;
  /** This many failed starts in a row: the service cannot run, everything stops. */
  maxQuickExits: number;
  /** Delay before the n-th restart in a row: first * 2^(n-1), at most max. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { quickExitMs: 10_000, maxQuickExits: 4, firstDelayMs: 1000, maxDelayMs: 30_000 };

export interface Supervisor {
  /** Resolves with the exit code for `up` once every child has exited. */
  readonly done: Promise<number>;
  /** Aborted as soon as shutdown begins, so waits elsewhere stop early. */
  readonly stopping: AbortSignal;
  stop(signal?: NodeJS.Signals): void;
}

interface Running {
  spec: ServiceSpec;
  prefix: string;
  child: ChildProcess;
  startedAt: number;
  /** Exited and not (yet) restarted. */
  exited: boolean;
  code: number | null;
  /** Failed starts in a row (runs shorter than quickExitMs). */
  quickExits: number;
  restarts: number;
  restartTimer?: NodeJS.Timeout;
}

/** Prefixes every line so four interleaved logs stay readable in one terminal. */
function pipeLines(input: Readable, output: Writable, prefix: string): void {
  createInterface({ input, crlfDelay: Infinity }).on("line", (line) => output.write(`${prefix} ${line}\n`));
}

function startChild(spec: ServiceSpec, repoRoot: string, prefix: string): ChildProcess {
  const child = spawn(process.execPath, ["--enable-source-maps", spec.entry], {
    cwd: repoRoot,
    env: { ...process.env, ...spec.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  pipeLines(child.stdout as Readable, process.stdout, prefix);
  pipeLines(child.stderr as Readable, process.stderr, prefix);
  return child;
}

const describeExit = (code: number | null, signal: NodeJS.Signals | null) => (code === null ? `signal ${String(signal)}` : `exit ${code}`);

/**
 * Runs the services as children of this process. A service that dies on its own is restarted
 * with a growing delay (1 s, 2 s, 4 s, ... 30 s), said in the output, while the others keep
 * running: a crash of one worker does not take the system down. A service that keeps failing
 * right after its start (a crash loop: a bad setting, a port taken) stops everything, with the
 * reason. One Ctrl-C stops them all in order, a second one kills them.
 */
export function supervise(specs: ServiceSpec[], repoRoot: string, policy: RestartPolicy = DEFAULT_RESTART_POLICY): Supervisor {
  const width = Math.max(...specs.map((s) => s.name.length));
  const controller = new AbortController();
  let failed: string | undefined;
  let resolveDone: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (resolveDone = resolve));
  let resolved = false;

  const running: Running[] = specs.map((spec, i) => {
    const prefix = paint(COLORS[i % COLORS.length] ?? "gray", `${spec.name.padEnd(width)} |`);
    return { spec, prefix, child: startChild(spec, repoRoot, prefix), startedAt: Date.now(), exited: false, code: null, quickExits: 0, restarts: 0 };
  });
  const alive = () => running.filter((r) => !r.exited);

  const finishIfAllExited = () => {
    if (resolved || alive().length > 0) return;
    resolved = true;
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    const unclean = running.filter((r) => r.code !== 0).map((r) => r.spec.name);
    if (failed) fail(`${failed}; stopped the others`);
    else if (unclean.length > 0) fail(`did not stop cleanly: ${unclean.join(", ")}`);
    else step("all services stopped");
    resolveDone(failed || unclean.length > 0 ? 1 : 0);
  };

  const stop = (signal: NodeJS.Signals = "SIGTERM") => {
    if (controller.signal.aborted) return;
    controller.abort();
    for (const r of running) clearTimeout(r.restartTimer);
    for (const r of alive()) r.child.kill(signal);
    setTimeout(() => killAll("did not stop within 20s"), KILL_AFTER_MS).unref();
    finishIfAllExited();
  };

  const killAll = (why: string) => {
    const left = alive();
    if (left.length === 0) return;
    fail(`${why}; killing ${left.map((r) => r.spec.name).join(", ")}`);
    for (const r of left) r.child.kill("SIGKILL");
  };

  let firstSignalAt = 0;
  function onSignal(signal: NodeJS.Signals): void {
    if (controller.signal.aborted) {
      // pnpm, tsx and the terminal each pass the same Ctrl-C on; only a later one means "hurry up".
      if (Date.now() - firstSignalAt > RELAY_WINDOW_MS) killAll(`second ${signal}`);
      return;
    }
    firstSignalAt = Date.now();
    step(`${signal}: stopping ${alive().length} service(s)`);
    stop(signal);
  }

  const restart = (r: Running) => {
    r.restartTimer = undefined;
    if (controller.signal.aborted) return;
    r.restarts += 1;
    step(`${r.spec.name}: restarting (restart ${r.restarts})`);
    r.child = startChild(r.spec, repoRoot, r.prefix);
    r.startedAt = Date.now();
    r.exited = false;
    r.code = null;
    watch(r);
  };

  const onExit = (r: Running, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null) => {
    if (r.child !== child || r.exited) return;
    r.exited = true;
    r.code = code;
    if (controller.signal.aborted) return finishIfAllExited();
    const ranMs = Date.now() - r.startedAt;
    r.quickExits = ranMs < policy.quickExitMs ? r.quickExits + 1 : 0;
    if (r.quickExits >= policy.maxQuickExits) {
      failed = `${r.spec.name} keeps failing right after it starts (${describeExit(code, signal)}, ${r.quickExits} times in a row)`;
      stop("SIGTERM");
      return;
    }
    const delay = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, r.quickExits - 1));
    fail(
      `${r.spec.name} exited unexpectedly (${describeExit(code, signal)}) after ${(ranMs / 1000).toFixed(1)} s; restarting in ${(delay / 1000).toFixed(1)} s`,
    );
    r.restartTimer = setTimeout(() => restart(r), delay);
  };

  function watch(r: Running): void {
    const child = r.child;
    // "close" rather than "exit": it comes after the child's last log lines have been printed.
    child.once("close", (code, signal) => onExit(r, child, code, signal));
    // A child that cannot even be spawned never emits "close".
    child.once("error", (err) => {
      fail(`${r.spec.name}: ${err.message}`);
      onExit(r, child, 1, null);
    });
  }

  for (const r of running) watch(r);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  return { done, stopping: controller.signal, stop };
}
