import { readFileSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { ROOT } from "../../../scripts/deploy/podman";
import type { KubeObject } from "./kube-play";

/*
 * deploy/k8s as `podman kube play` (podman 4.3.1, Debian bookworm) can run it on one machine, with
 * every change said here, and nothing else changed:
 * - Secrets become podman secrets this suite creates (JSON of base64 values, what kube play's
 *   secretKeyRef reads); 4.3.1 stores a Secret of the YAML stream in a form its own secretKeyRef then
 *   refuses ("not valid JSON"). The values are this run's (the templates' REPLACE_ME all replaced).
 * - Secret volumes (the seal) become a hostPath folder holding the same items: 4.3.1 panics on a secret
 *   volume without `optional`, and mounts a named volume instead of the secret with it.
 * - The migration Job becomes a Pod of its template (restartPolicy Never): 4.3.1 has no Job.
 * - Every pod gets hostNetwork (these machines' only networking); PORT and HEALTH_PORT move to free
 *   ports, the probes with them (by number: containerPorts are dropped, since 4.3.1 refuses any port
 *   mapping on the host's network); HOST is 127.0.0.1, not 0.0.0.0 (which on the host's network would
 *   listen on every interface of the machine).
 * - The ConfigMap's REPLACE values are this run's: PUBLIC_BASE_URL https://esign.test, the S3
 *   endpoint and bucket of the s3rver on this machine, the run's Redis prefix; and the webhook
 *   receiver of the smoke test is allowed (WEBHOOK_ALLOWED_PRIVATE_NETWORKS=127.0.0.1/32; its CA is
 *   given to the dispatcher through NODE_EXTRA_CA_CERTS).
 * - emptyDir volumes get a name of this run: 4.3.1 makes a named podman volume of each, by its name.
 * - The image is the one test:deploy built (imagePullPolicy Never).
 * Not played (kube play has no such kinds): Services, PodDisruptionBudgets, the
 * HorizontalPodAutoscaler and KEDA's ScaledObjects; test/static/k8s-schemas.unit.test.ts validates
 * them against Kubernetes' and KEDA's schemas.
 */

export interface KubePlayRun {
  /** Podman secrets to create first: name -> key -> value. */
  secrets: Record<string, Record<string, string>>;
  migrate: KubeObject;
  /** The ConfigMap and the Deployments, in the kustomization's order. */
  objects: KubeObject[];
  notPlayed: string[];
  /** Each Deployment's listening port as moved here. */
  ports: Record<string, number>;
  /** Named volumes kube play will make (to remove afterwards). */
  volumes: string[];
}

export interface KubePlayInputs {
  run: string;
  image: string;
  configMap: Record<string, string>;
  secrets: Record<string, Record<string, string>>;
  /** Secret name -> host folder holding its items (secret volumes). */
  secretFolders: Record<string, string>;
  ports: Record<string, number>;
  extraEnv: Record<string, Record<string, string>>;
  extraMounts: Record<string, { hostPath: string; mountPath: string }[]>;
}

export function readManifests(): KubeObject[] {
  const dir = path.join(ROOT, "deploy/k8s");
  const kustomization = parseAllDocuments(readFileSync(path.join(dir, "kustomization.yaml"), "utf8"))[0]!.toJS() as { resources: string[] };
  return kustomization.resources.flatMap((file) =>
    parseAllDocuments(readFileSync(path.join(dir, file), "utf8"))
      .map((d) => d.toJS() as KubeObject | null)
      .filter((o): o is KubeObject => o !== null),
  );
}

interface Probe {
  httpGet?: { path?: string; port: number | string };
}
interface Container {
  name: string;
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  image?: string;
  imagePullPolicy?: string;
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface Volume {
  name: string;
  emptyDir?: unknown;
  secret?: { secretName: string };
  hostPath?: { path: string };
}
interface PodSpec {
  hostNetwork?: boolean;
  restartPolicy?: string;
  containers: Container[];
  volumes?: Volume[];
}

function adaptPod(owner: string, spec: PodSpec, input: KubePlayInputs, volumes: string[]): PodSpec {
  const renamed = new Map<string, string>();
  const podVolumes: Volume[] = (spec.volumes ?? []).map((v) => {
    if (v.secret) {
      const folder = input.secretFolders[v.secret.secretName];
      if (!folder) throw new Error(`no folder for secret volume ${v.secret.secretName}`);
      return { name: v.name, hostPath: { path: folder } };
    }
    if (v.emptyDir !== undefined) {
      const name = `${input.run}-${owner}-${v.name}`;
      renamed.set(v.name, name);
      volumes.push(name);
      return { ...v, name };
    }
    return v;
  });
  const containers = spec.containers.map((c, i) => {
    const port = input.ports[owner];
    const probe = (p: Probe | undefined) => (p?.httpGet && port ? { ...p, httpGet: { ...p.httpGet, port } } : p);
    const env = (c.env ?? []).map((e) => ((e.name === "PORT" || e.name === "HEALTH_PORT") && port ? { name: e.name, value: String(port) } : e));
    for (const [name, value] of Object.entries(input.extraEnv[owner] ?? {})) env.push({ name, value });
    const mounts = (c.volumeMounts ?? []).map((m) => ({ ...m, name: renamed.get(m.name) ?? m.name }));
    for (const [j, m] of (input.extraMounts[owner] ?? []).entries()) {
      const name = `extra${i}${j}`;
      podVolumes.push({ name, hostPath: { path: m.hostPath } });
      mounts.push({ name, mountPath: m.mountPath, readOnly: true });
    }
    const { ports: _mapped, ...rest } = c;
    return {
      ...rest,
      image: input.image,
      imagePullPolicy: "Never",
      env,
      volumeMounts: mounts,
      ...(c.startupProbe ? { startupProbe: probe(c.startupProbe) } : {}),
      ...(c.readinessProbe ? { readinessProbe: probe(c.readinessProbe) } : {}),
      ...(c.livenessProbe ? { livenessProbe: probe(c.livenessProbe) } : {}),
    };
  });
  return { ...spec, hostNetwork: true, containers, volumes: podVolumes };
}

export function forKubePlay(manifests: KubeObject[], input: KubePlayInputs): KubePlayRun {
  const out: KubePlayRun = { secrets: {}, migrate: undefined as unknown as KubeObject, objects: [], notPlayed: [], ports: input.ports, volumes: [] };
  for (const m of manifests) {
    const id = `${m.kind} ${m.metadata.name}`;
    if (m.kind === "Secret") {
      const values = input.secrets[m.metadata.name];
      const keys = [...Object.keys(m.data ?? {}), ...Object.keys(m.stringData ?? {})];
      const missing = keys.filter((k) => values?.[k] === undefined && !input.secretFolders[m.metadata.name]);
      if (missing.length > 0) throw new Error(`${id}: no value of this run for ${missing.join(", ")}`);
      if (values) out.secrets[m.metadata.name] = values;
    } else if (m.kind === "ConfigMap") {
      out.objects.push({ ...m, data: { ...(m.data ?? {}), ...input.configMap } });
    } else if (m.kind === "Job") {
      out.migrate = {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: m.metadata.name, labels: m.metadata.labels ?? {} },
        spec: adaptPod(m.metadata.name, { ...m.spec.template.spec, restartPolicy: "Never" } as PodSpec, input, out.volumes),
      };
    } else if (m.kind === "Deployment") {
      out.objects.push({
        ...m,
        spec: { ...m.spec, template: { ...m.spec.template, spec: adaptPod(m.metadata.name, m.spec.template.spec as PodSpec, input, out.volumes) } },
      });
    } else {
      out.notPlayed.push(id);
    }
  }
  if (!out.migrate) throw new Error("deploy/k8s has no migration Job");
  return out;
}
