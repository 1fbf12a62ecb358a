import { writeFileSync } from "node:fs";
import { stringify } from "yaml";
import { podman } from "../../../scripts/deploy/podman";

/** A Kubernetes object as this suite reads and writes them (each kind's spec is read by the code that knows it). */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; [k: string]: unknown };
  // biome-ignore lint/suspicious/noExplicitAny: a manifest's spec is free-form YAML
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  [k: string]: unknown;
}

/** Writes the objects as one YAML stream (kept in the run's folder for a look after a failure) and plays it. */
export async function kubePlay(objects: KubeObject[], file: string): Promise<void> {
  writeFileSync(file, objects.map((o) => stringify(o)).join("---\n"));
  await podman(["kube", "play", file]);
}

export async function kubeDown(file: string): Promise<void> {
  await podman(["kube", "down", file], { allowFailure: true });
}

/** The containers podman made for a pod (kube play names them `<pod>-<container>`). */
export async function containersOf(pod: string): Promise<string[]> {
  const out = await podman(["ps", "-a", "--filter", `pod=${pod}`, "--format", "{{.Names}}"], { allowFailure: true });
  return out.stdout.split("\n").filter((n) => n && !n.endsWith("-infra"));
}

export async function logsOf(container: string, lines = 40): Promise<string> {
  const out = await podman(["logs", "--tail", String(lines), container], { allowFailure: true });
  return `${out.stdout}${out.stderr}`;
}

/** Waits for a container to exit; its exit code. */
export async function waitExit(container: string): Promise<number> {
  const out = await podman(["wait", "--condition", "exited", container], { allowFailure: true });
  if (out.code !== 0) throw new Error(`podman wait ${container}: ${out.stderr}`);
  const code = await podman(["inspect", container, "--format", "{{.State.ExitCode}}"]);
  return Number(code.stdout.trim());
}

/** Polls an HTTP URL until it answers 200; the milliseconds it took from `since`. */
export async function waitReady(url: string, since: number, timeoutMs = 120_000, onMiss?: () => Promise<string>): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return Date.now() - since;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms${onMiss ? `\n${await onMiss()}` : ""}`);
}
