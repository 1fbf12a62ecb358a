import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import type { KubeObject } from "./kube-play";

/*
 * docker/compose.yaml as pods for `podman kube play`. Debian bookworm's podman-compose (1.0.3) cannot
 * run it on these machines: it always attaches every container to a `<project>_default` bridge network
 * as well, which podman refuses together with `network_mode: host` ("cannot set multiple networks
 * without bridge network mode"), and bridge networks are not to be used here. So the compose file is
 * read and each service becomes one pod with the same image, command, environment (compose's
 * interpolation, `${VAR:-default}` and `${VAR:?message}` included), volumes, read-only root file system
 * and restart policy, played in the order of its `depends_on`. What differs is said by the caller
 * (test/deploy/compose-stack.test.ts): host networking, and the addresses that follow from it.
 */

interface ComposeService {
  image?: string;
  build?: { target?: string };
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  volumes?: string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  restart?: string;
  read_only?: boolean;
  stop_grace_period?: string;
}

export interface ComposeFile {
  name: string;
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

/** Compose's interpolation of one string: `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?err}`, `$$`. */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
      if (whole === "$$") return "$";
      const value = env[name!];
      const unset = value === undefined || (op?.startsWith(":") === true && value === "");
      if (op?.endsWith("?") && unset) throw new Error(`compose: ${name} is required: ${arg}`);
      if (op?.endsWith("-") && unset) return arg ?? "";
      return value ?? "";
    },
  );
}

function interpolateAll(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === "string") return interpolate(value, env);
  if (Array.isArray(value)) return value.map((v) => interpolateAll(v, env));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, env)]));
  return value;
}

export function loadCompose(file: string, env: Record<string, string | undefined>): ComposeFile {
  const raw = parse(readFileSync(file, "utf8"), { merge: true }) as ComposeFile;
  return interpolateAll(raw, env) as ComposeFile;
}

function environmentOf(s: ComposeService): Record<string, string> {
  if (Array.isArray(s.environment)) {
    return Object.fromEntries(s.environment.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
  }
  return Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, v === null ? "" : String(v)]));
}

const dependenciesOf = (s: ComposeService) => (Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {}));

/** The services in start order, as groups: each group needs only services of earlier groups. */
export function startOrder(compose: ComposeFile, only: string[]): string[][] {
  const groups: string[][] = [];
  const placed = new Set<string>();
  let left = [...only];
  while (left.length > 0) {
    const ready = left.filter((name) => dependenciesOf(compose.services[name]!).every((d) => placed.has(d) || !only.includes(d)));
    if (ready.length === 0) throw new Error(`compose: a dependency cycle among ${left.join(", ")}`);
    groups.push(ready);
    for (const r of ready) placed.add(r);
    left = left.filter((n) => !placed.has(n));
  }
  return groups;
}

export interface PodOptions {
  /** The image of a service (the compose file's, as built for this run). */
  image(service: string, declared: string | undefined): string;
  /** The environment after the compose file's: what this machine needs different, said per service. */
  override(service: string, env: Record<string, string>): Record<string, string>;
  /** Extra mounts of this machine (e.g. the receiver's CA for the dispatcher): host path -> container path. */
  mounts?(service: string): { hostPath: string; mountPath: string }[];
}

type PodVolume = { name: string; persistentVolumeClaim?: { claimName: string }; hostPath?: { path: string } };

const seconds = (d: string | undefined) => (d ? Number(/^(\d+)s$/.exec(d)?.[1] ?? "30") : undefined);

/** One pod per service, on the host's network. */
export function composeServiceToPod(compose: ComposeFile, service: string, opts: PodOptions): KubeObject {
  const s = compose.services[service]!;
  const volumes: PodVolume[] = [];
  const mounts: { name: string; mountPath: string; readOnly?: boolean }[] = [];
  for (const [i, spec] of (s.volumes ?? []).entries()) {
    const [source = "", target = "", mode] = spec.split(":");
    const name = `v${i}`;
    const named = !source.startsWith("/") && !source.startsWith(".");
    volumes.push(named ? { name, persistentVolumeClaim: { claimName: `${compose.name}-${source}` } } : { name, hostPath: { path: path.resolve(source) } });
    mounts.push({ name, mountPath: target, ...(mode === "ro" ? { readOnly: true } : {}) });
  }
  for (const [i, m] of (opts.mounts?.(service) ?? []).entries()) {
    volumes.push({ name: `extra${i}`, hostPath: { path: m.hostPath } });
    mounts.push({ name: `extra${i}`, mountPath: m.mountPath, readOnly: true });
  }
  const env = opts.override(service, environmentOf(s));
  const command = typeof s.command === "string" ? s.command.split(" ") : s.command;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: `${compose.name}-${service}`, labels: { "app.kubernetes.io/part-of": compose.name, "app.kubernetes.io/name": service } },
    spec: {
      hostNetwork: true,
      restartPolicy: s.restart === "no" ? "Never" : s.restart === "on-failure" ? "OnFailure" : "Always",
      ...(seconds(s.stop_grace_period) ? { terminationGracePeriodSeconds: seconds(s.stop_grace_period) } : {}),
      containers: [
        {
          name: service,
          image: opts.image(service, s.image),
          ...(command ? { args: command } : {}),
          env: Object.entries(env).map(([name, value]) => ({ name, value })),
          volumeMounts: mounts,
          ...(s.read_only ? { securityContext: { readOnlyRootFilesystem: true } } : {}),
        },
      ],
      volumes,
    },
  };
}
