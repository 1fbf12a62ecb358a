import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fail, paint, step, type Color } from "./output";
import type { ServiceSpec } from "./services";

// Longer than the services' own 15s shutdown grace, so a slow but orderly stop is not cut short.
const KILL_AFTER_MS = 20_000;
const RELAY_WINDOW_MS = 2000;
const COLORS: Color[] = ["magenta", "blue", "yellow", "green", "red", "gray"];

export interface Supervisor {
  /** Resolves with the exit code for `up` once every child has exited. */
  readonly done: Promise<number>;
  /** Aborted as soon as shutdown begins, so waits elsewhere stop early. */
  readonly stopping: AbortSignal;
  stop(signal?: NodeJS.Signals): void;
}

interface Running {
  spec: ServiceSpec;
  child: ChildProcess;
  exited: boolean;
  code: number | null;
}

/** Prefixes every line so four interleaved logs stay readable in one terminal. */
function pipeLines(input: Readable, output: Writable, prefix: string): void {
  createInterface({ input, crlfDelay: Infinity }).on("line", (line) => output.write(`${prefix} ${line}\n`));
}

function startChild(spec: ServiceSpec, repoRoot: string, prefix: string): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", spec.entry], {
    cwd: repoRoot,
    env: { ...process.env, ...spec.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  pipeLines(child.stdout as Readable, process.stdout, prefix);
  pipeLines(child.stderr as Readable, process.stderr, prefix);
  return child;
}

/**
 * Runs the services as children of this process: one Ctrl-C stops them all in order, a second one
 * kills them, and any service dying on its own takes the others down so that a half-running
 * system is never mistaken for a working one.
 */
export function supervise(specs: ServiceSpec[], repoRoot: string): Supervisor {
  const width = Math.max(...specs.map((s) => s.name.length));
  const controller = new AbortController();
  let failed: string | undefined;
  let resolveDone: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (resolveDone = resolve));

  const running: Running[] = specs.map((spec, i) => {
    const prefix = paint(COLORS[i % COLORS.length] ?? "gray", `${spec.name.padEnd(width)} |`);
    return { spec, child: startChild(spec, repoRoot, prefix), exited: false, code: null };
  });
  const alive = () => running.filter((r) => !r.exited);

  const finishIfAllExited = () => {
    if (alive().length > 0) return;
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    const unclean = running.filter((r) => r.code !== 0).map((r) => r.spec.name);
    if (failed) fail(`${failed} exited unexpectedly; stopped the others`);
    else if (unclean.length > 0) fail(`did not stop cleanly: ${unclean.join(", ")}`);
    else step("all services stopped");
    resolveDone(failed || unclean.length > 0 ? 1 : 0);
  };

  const stop = (signal: NodeJS.Signals = "SIGTERM") => {
    if (controller.signal.aborted) return;
    controller.abort();
    for (const r of alive()) r.child.kill(signal);
    setTimeout(() => killAll("did not stop within 20s"), KILL_AFTER_MS).unref();
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

  for (const r of running) {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (r.exited) return;
      r.exited = true;
      r.code = code;
      if (!controller.signal.aborted) {
        failed = `${r.spec.name} (${code === null ? `signal ${String(signal)}` : `exit ${code}`})`;
        stop("SIGTERM");
      }
      finishIfAllExited();
    };
    // "close" rather than "exit": it comes after the child's last log lines have been printed.
    r.child.once("close", onExit);
    // A child that cannot even be spawned never emits "close".
    r.child.once("error", (err) => {
      fail(`${r.spec.name}: ${err.message}`);
      onExit(1, null);
    });
  }
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  return { done, stopping: controller.signal, stop };
}
