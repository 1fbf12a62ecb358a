import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { ConfigError, loadConfig, ZEnv, type AppConfig } from "@esign/config";
import { createSealer } from "@esign/seal";
import { QUEUE_METRIC_NAMES } from "../../packages/runtime/src/metrics/queue-metrics";

/*
 * deploy/k8s against the code it deploys: every variable is a setting the services read, production's
 * required settings are there (and the Secret template's placeholders are refused), the probes hit the
 * port each service really listens on, and every Deployment has its PodDisruptionBudget and autoscaler.
 * Read-only: neither PostgreSQL, Redis nor a cluster.
 */

const ROOT = path.resolve(__dirname, "../..");
const K8S = path.join(ROOT, "deploy/k8s");
const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");

const SERVICES = ["api-gateway", "casefile-worker", "notifier", "webhook-dispatcher"] as const;
type ServiceName = (typeof SERVICES)[number];
const WORKERS = SERVICES.filter((s) => s !== "api-gateway");
const MIGRATE_JOB = "esign-migrate";

/** What production refuses to start without: loadConfig in packages/config/src/load-config.ts ("production"). */
const PRODUCTION_REQUIRES = ["JWT_SECRET", "ENCRYPTION_KEY", "METRICS_TOKEN"] as const;
/** What one service needs beyond loadConfig, checked where it starts. */
const SERVICE_REQUIRES: Partial<Record<ServiceName, string[]>> = {
  // packages/seal/src/create-sealer.ts: production without SEAL_P12_PATH throws; the password opens the P12.
  "casefile-worker": ["SEAL_P12_PATH", "SEAL_P12_PASSWORD"],
  // packages/mailer/src/create-mailer.ts: production without SMTP_URL only writes mail to files.
  notifier: ["SMTP_URL"],
  // packages/storage/src/create-storage.ts: the documents' bucket (configmap.yaml: STORAGE_BACKEND=s3).
  "api-gateway": ["S3_BUCKET"],
};
/** The Secret templates mark every value to replace with this (and the services refuse it as it is). */
const PLACEHOLDER = "REPLACE_ME";

type Labels = Record<string, string>;
interface KeyRef {
  name: string;
  key: string;
}
interface EnvVar {
  name: string;
  value?: unknown;
  valueFrom?: { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef; fieldRef?: unknown; resourceFieldRef?: unknown };
}
interface EnvFrom {
  prefix?: string;
  configMapRef?: { name: string };
  secretRef?: { name: string };
}
interface HttpProbe {
  httpGet?: { path?: string; port: number | string };
}
interface Container {
  name: string;
  image?: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: EnvFrom[];
  startupProbe?: HttpProbe;
  readinessProbe?: HttpProbe;
  livenessProbe?: HttpProbe;
  lifecycle?: { preStop?: { exec?: { command?: string[] }; sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
  volumeMounts?: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[];
}
interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string };
  secret?: { secretName: string; items?: { key: string; path: string }[] };
  emptyDir?: unknown;
}
interface PodSpec {
  containers: Container[];
  volumes?: Volume[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds?: number;
}
interface PodTemplate {
  metadata?: { labels?: Labels };
  spec: PodSpec;
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Labels };
  data?: Record<string, unknown>;
  stringData?: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: each kind's spec is read by the checks that know that kind
  spec?: any;
  __file: string;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return yamlFiles(full);
    return /\.ya?ml$/.test(e.name) ? [full] : [];
  });
}

const parseProblems: string[] = [];
const documents: Manifest[] = yamlFiles(K8S).flatMap((file) => {
  const rel = path.relative(ROOT, file);
  return parseAllDocuments(readFileSync(file, "utf8")).flatMap((doc) => {
    for (const e of [...doc.errors, ...doc.warnings]) parseProblems.push(`${rel}: ${e.message}`);
    const js: unknown = doc.toJS();
    return js && typeof js === "object" ? [{ ...(js as Omit<Manifest, "__file">), __file: rel }] : [];
  });
});
const manifests = documents.filter((m) => m.kind !== "Kustomization");
const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const named = (kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata?.name === name);
const id = (m: Manifest) => `${m.kind} ${m.metadata.name}`;

/** Deployments and the migrate Job: everything that runs a container of the platform. */
const workloads = () => [...ofKind("Deployment"), ...ofKind("Job")];
const template = (m: Manifest): PodTemplate => m.spec.template as PodTemplate;
const mainContainer = (m: Manifest): Container => {
  const containers = template(m).spec.containers;
  return containers.find((c) => c.name === m.metadata.name) ?? containers[0]!;
};
const deployment = (service: ServiceName): Manifest => {
  const d = named("Deployment", service);
  if (!d) throw new Error(`deploy/k8s has no Deployment named ${service}`);
  return d;
};

function secretValues(secret: Manifest): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(secret.data ?? {})) values[k] = Buffer.from(String(v), "base64").toString("utf8");
  for (const [k, v] of Object.entries(secret.stringData ?? {})) values[k] = String(v);
  return values;
}
const configMapValues = (cm: Manifest): Record<string, string> => Object.fromEntries(Object.entries(cm.data ?? {}).map(([k, v]) => [k, String(v)]));

interface ResolvedEnv {
  /** Each variable with where it comes from, for the messages. */
  names: { name: string; from: string }[];
  /** The values as the container would see them (variables from fieldRef etc. left out). */
  values: Record<string, string>;
  problems: string[];
}

/**
 * The container's environment as the kubelet builds it: envFrom first, then env (which wins). With
 * `filled`, every placeholder of the Secret templates becomes one random 64-hex value, as an operator's
 * `openssl rand -hex 32` would.
 */
function resolveEnv(owner: Manifest, c: Container, filled: string | undefined): ResolvedEnv {
  const out: ResolvedEnv = { names: [], values: {}, problems: [] };
  const fill = (v: string) => (filled === undefined ? v : v.split(PLACEHOLDER).join(filled));
  const where = `${id(owner)} container ${c.name}`;
  for (const source of c.envFrom ?? []) {
    const prefix = source.prefix ?? "";
    const ref = source.configMapRef ?? source.secretRef;
    const kind = source.configMapRef ? "ConfigMap" : "Secret";
    const m = ref && named(kind, ref.name);
    if (!ref || !m) {
      out.problems.push(`${where}: envFrom ${kind} ${ref?.name ?? "(no name)"} is not in deploy/k8s`);
      continue;
    }
    const values = kind === "ConfigMap" ? configMapValues(m) : secretValues(m);
    for (const [k, v] of Object.entries(values)) {
      out.names.push({ name: prefix + k, from: `envFrom ${kind} ${ref.name}` });
      out.values[prefix + k] = fill(v);
    }
  }
  for (const e of c.env ?? []) {
    const keyRef = e.valueFrom?.secretKeyRef ?? e.valueFrom?.configMapKeyRef;
    const kind = e.valueFrom?.secretKeyRef ? "Secret" : "ConfigMap";
    out.names.push({ name: e.name, from: keyRef ? `env from ${kind} ${keyRef.name}/${keyRef.key}` : "env" });
    if (keyRef) {
      const m = named(kind, keyRef.name);
      const values = m && (kind === "Secret" ? secretValues(m) : configMapValues(m));
      const v = values?.[keyRef.key];
      if (v === undefined) out.problems.push(`${where}: ${e.name} refers to ${kind} ${keyRef.name} key ${keyRef.key}, which deploy/k8s does not have`);
      else out.values[e.name] = fill(v);
    } else if (e.value !== undefined) {
      if (typeof e.value !== "string") out.problems.push(`${where}: ${e.name} must be a string (quote it), not ${JSON.stringify(e.value)}`);
      out.values[e.name] = fill(String(e.value));
    } else if (!e.valueFrom) {
      out.values[e.name] = "";
    }
  }
  return out;
}

const FILLED = randomBytes(32).toString("hex");
/** The configuration the service would start with: loadConfig, production's checks included. */
const filledConfig = (m: Manifest): AppConfig => loadConfig(resolveEnv(m, mainContainer(m), FILLED).values);
/**
 * The few settings the checks of ports and volumes need, parsed as the service would (defaults applied)
 * but alone: a missing secret or a bad URL fails the configuration tests, not every test.
 */
const ZPlacement = ZEnv.pick({ PORT: true, HEALTH_PORT: true, STORAGE_DIR: true, SEAL_P12_PATH: true });
const settingsOf = (m: Manifest) => ZPlacement.parse(resolveEnv(m, mainContainer(m), FILLED).values);

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

const subset = (selector: Labels | undefined, labels: Labels | undefined) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);
const podLabels = (m: Manifest) => template(m).metadata?.labels;

/** A probe's or Service's port (a number, or the name of one of the container's ports) as a number. */
function portNumber(c: Container, port: number | string | undefined): number | undefined {
  if (typeof port === "number") return port;
  return c.ports?.find((p) => p.name === port)?.containerPort;
}

const mainTs = (service: ServiceName) => read(`services/${service}/src/main.ts`);
/** Where the service serves /healthz and /readyz: the gateway on PORT, a worker on HEALTH_PORT or its main.ts default. */
function listeningPort(service: ServiceName): number {
  const config = settingsOf(deployment(service));
  if (service === "api-gateway") return config.PORT;
  const fallback = /const DEFAULT_HEALTH_PORT = (\d+);/.exec(mainTs(service))?.[1];
  if (!fallback) throw new Error(`services/${service}/src/main.ts: DEFAULT_HEALTH_PORT not found`);
  return config.HEALTH_PORT ?? Number(fallback);
}
/** The queues a worker works: its main.ts's startWorker("<queue>", ...) calls. */
const queuesOf = (service: ServiceName) => [...mainTs(service).matchAll(/startWorker\(\s*"([^"]+)"/g)].map((m) => m[1]!).sort();

/** The Dockerfile's CMD of each target (`FROM runtime AS <target>`), which the manifests must run. */
function dockerfileCommands(): Record<string, string[]> {
  const commands: Record<string, string[]> = {};
  let target: string | undefined;
  for (const line of read("docker/Dockerfile").split("\n")) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line);
    if (from) target = from[1];
    const cmd = /^CMD\s+(\[.*\])\s*$/.exec(line);
    if (cmd && target) commands[target] = JSON.parse(cmd[1]!) as string[];
  }
  return commands;
}

/** packages/runtime/src/run-service.ts: how long a service may take to stop before it exits by force. */
function shutdownGraceSeconds(): number {
  const ms = /const SHUTDOWN_GRACE_MS = ([\d_]+);/.exec(read("packages/runtime/src/run-service.ts"))?.[1];
  if (!ms) throw new Error("packages/runtime/src/run-service.ts: SHUTDOWN_GRACE_MS not found");
  return Number(ms.replace(/_/g, "")) / 1000;
}
function preStopSeconds(c: Container): number {
  const pre = c.lifecycle?.preStop;
  if (pre?.sleep) return pre.sleep.seconds;
  const cmd = pre?.exec?.command;
  return cmd?.[0] === "sleep" ? Number(cmd[1]) : 0;
}

describe("deploy/k8s", () => {
  it("parses, and the kustomization lists exactly the manifests in the folder", () => {
    expect(parseProblems).toEqual([]);
    const kustomization = documents.find((d) => d.kind === "Kustomization" && d.__file === "deploy/k8s/kustomization.yaml") as unknown as
      | { resources?: string[] }
      | undefined;
    expect(kustomization).toBeDefined();
    const listed = [...(kustomization?.resources ?? [])].sort();
    const present = readdirSync(K8S)
      .filter((f) => /\.ya?ml$/.test(f) && f !== "kustomization.yaml")
      .sort();
    expect(listed).toEqual(present);
  });

  it("has a Deployment per service and the migrate Job, each running the Dockerfile's command of its target", () => {
    const commands = dockerfileCommands();
    const runs = [...SERVICES.map((s) => ({ m: deployment(s), target: s as string })), { m: named("Job", MIGRATE_JOB)!, target: "migrate" }];
    for (const { m, target } of runs) {
      expect(m).toBeDefined();
      expect({ [id(m)]: mainContainer(m).command }).toEqual({ [id(m)]: commands[target] });
      expect(mainContainer(m).image).toMatch(/^esign-platform(:|$)/);
    }
  });

  it("sets only variables the services read (packages/config ZEnv)", () => {
    const known = new Set(Object.keys(ZEnv.shape));
    const unknown: string[] = [];
    const problems: string[] = [];
    for (const m of workloads()) {
      for (const c of template(m).spec.containers) {
        const env = resolveEnv(m, c, undefined);
        problems.push(...env.problems);
        for (const { name, from } of env.names) if (!known.has(name)) unknown.push(`${id(m)} container ${c.name}: ${name} (${from})`);
      }
    }
    expect(problems).toEqual([]);
    expect(unknown).toEqual([]);
    // A ConfigMap value that is not a string (an unquoted number or boolean) is refused by the API server.
    const notStrings = ofKind("ConfigMap").flatMap((cm) =>
      Object.entries(cm.data ?? {})
        .filter(([, v]) => typeof v !== "string")
        .map(([k]) => `${cm.metadata.name}/${k}`),
    );
    expect(notStrings).toEqual([]);
  });

  it("uses every key of the Secrets (a key nothing reads is a typo or a leftover)", () => {
    const used = new Set<string>();
    for (const m of workloads()) {
      const pod = template(m).spec;
      for (const c of pod.containers) {
        for (const e of c.env ?? []) if (e.valueFrom?.secretKeyRef) used.add(`${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`);
        for (const f of c.envFrom ?? []) {
          const secret = f.secretRef && named("Secret", f.secretRef.name);
          if (secret) for (const k of Object.keys(secretValues(secret))) used.add(`${secret.metadata.name}/${k}`);
        }
      }
      for (const v of pod.volumes ?? []) {
        const secret = v.secret && named("Secret", v.secret.secretName);
        if (!secret) continue;
        for (const k of v.secret?.items?.map((i) => i.key) ?? Object.keys(secretValues(secret))) used.add(`${secret.metadata.name}/${k}`);
      }
    }
    const unused = ofKind("Secret")
      .flatMap((s) => Object.keys(secretValues(s)).map((k) => `${s.metadata.name}/${k}`))
      .filter((k) => !used.has(k));
    expect(unused).toEqual([]);
  });

  it("knows what production requires: the lists above are what the code refuses to start without", async () => {
    const refused = problemsOf(() => loadConfig({ NODE_ENV: "production" })).map((p) => p.split(":")[0]);
    expect(refused.sort()).toEqual([...PRODUCTION_REQUIRES].sort());
    await expect(createSealer({ production: true, developmentDir: path.join(ROOT, ".data/none") })).rejects.toThrow(/SEAL_P12_PATH/);
  });

  it("gives every service production's required settings", () => {
    const missing: string[] = [];
    for (const m of workloads()) {
      const env = resolveEnv(m, mainContainer(m), FILLED).values;
      const needs = [...PRODUCTION_REQUIRES, ...(SERVICE_REQUIRES[m.metadata.name as ServiceName] ?? [])];
      for (const name of needs) if (!env[name]) missing.push(`${id(m)}: ${name}`);
      if (env["NODE_ENV"] !== "production") missing.push(`${id(m)}: NODE_ENV=production`);
    }
    expect(missing).toEqual([]);
  });

  it("starts in production once the Secret's placeholders are replaced (loadConfig accepts each environment)", () => {
    for (const m of workloads()) {
      expect({ [id(m)]: problemsOf(() => filledConfig(m)) }).toEqual({ [id(m)]: [] });
      const config = filledConfig(m);
      expect(config.production).toBe(true);
      // Probes, Services and Prometheus reach the pod's address, never its loopback.
      expect({ [id(m)]: config.HOST }).toEqual({ [id(m)]: "0.0.0.0" });
    }
  });

  it("refuses to start on the Secret template as it is (the placeholders are invalid on purpose)", () => {
    for (const secret of ofKind("Secret")) {
      for (const [k, v] of Object.entries(secretValues(secret))) expect(`${secret.metadata.name}/${k}: ${v}`).toContain(PLACEHOLDER);
    }
    for (const m of workloads()) {
      const refused = problemsOf(() => loadConfig(resolveEnv(m, mainContainer(m), undefined).values)).map((p) => p.split(":")[0]);
      expect({ [id(m)]: refused }).toEqual({ [id(m)]: expect.arrayContaining([...PRODUCTION_REQUIRES]) });
    }
  });

  it.each(SERVICES)("%s: readiness on /readyz and liveness on /healthz, at the port it listens on", (service) => {
    const d = deployment(service);
    const c = mainContainer(d);
    const port = listeningPort(service);
    expect(c.readinessProbe?.httpGet?.path).toBe("/readyz");
    expect(c.livenessProbe?.httpGet?.path).toBe("/healthz");
    expect(portNumber(c, c.readinessProbe?.httpGet?.port)).toBe(port);
    expect(portNumber(c, c.livenessProbe?.httpGet?.port)).toBe(port);
    if (c.startupProbe) expect(portNumber(c, c.startupProbe.httpGet?.port)).toBe(port);
  });

  it.each(SERVICES)("%s: a Service on its port, and a PodDisruptionBudget selecting it alone", (service) => {
    const d = deployment(service);
    const c = mainContainer(d);
    const services = ofKind("Service").filter((s) => subset(s.spec?.selector, podLabels(d)));
    expect(services.map((s) => s.metadata.name)).toEqual([service]);
    const ports = (services[0]!.spec.ports as { targetPort: number | string }[]).map((p) => portNumber(c, p.targetPort));
    expect(ports).toContain(listeningPort(service));

    const pdbs = ofKind("PodDisruptionBudget").filter((p) => subset(p.spec?.selector?.matchLabels, podLabels(d)));
    expect(pdbs).toHaveLength(1);
    const pdb = pdbs[0]!;
    expect(pdb.spec.minAvailable ?? pdb.spec.maxUnavailable).toBeDefined();
    const alsoSelected = ofKind("Deployment").filter((o) => o !== d && subset(pdb.spec.selector.matchLabels, podLabels(o)));
    expect(alsoSelected.map(id)).toEqual([]);
    expect(subset(d.spec.selector?.matchLabels, podLabels(d))).toBe(true);
  });

  it("scales the gateway on CPU (HorizontalPodAutoscaler) against a CPU request", () => {
    const hpas = ofKind("HorizontalPodAutoscaler").filter((h) => h.spec?.scaleTargetRef?.kind === "Deployment" && h.spec.scaleTargetRef.name === "api-gateway");
    expect(hpas).toHaveLength(1);
    const metrics = hpas[0]!.spec.metrics as { type: string; resource?: { name: string } }[];
    expect(metrics).toContainEqual(expect.objectContaining({ type: "Resource", resource: expect.objectContaining({ name: "cpu" }) }));
    expect(mainContainer(deployment("api-gateway")).resources?.requests?.["cpu"]).toBeDefined();
  });

  it.each(WORKERS)("%s: a KEDA ScaledObject on the depth of the queues it works, never below one replica", (service) => {
    const scaled = ofKind("ScaledObject").filter(
      (s) => s.spec?.scaleTargetRef?.name === service && (s.spec.scaleTargetRef.kind ?? "Deployment") === "Deployment",
    );
    expect(scaled).toHaveLength(1);
    const spec = scaled[0]!.spec;
    // The depth is exported by the workers themselves: at zero replicas nothing would wake one.
    expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    const triggers = spec.triggers as { type: string; metadata: { query?: string; threshold?: string } }[];
    expect(triggers.map((t) => t.type)).toEqual(["prometheus"]);
    const query = triggers[0]!.metadata.query ?? "";
    expect(query).toContain(QUEUE_METRIC_NAMES.depth);
    expect(query).toMatch(/state="waiting"/);
    const queues = [...query.matchAll(/queue=~?"([^"]+)"/g)].flatMap((m) => m[1]!.split("|")).sort();
    expect(queues).toEqual(queuesOf(service));
    expect(Number(triggers[0]!.metadata.threshold)).toBeGreaterThan(0);
  });

  it.each(SERVICES)("%s: no replica count of its own (its autoscaler owns it)", (service) => {
    expect(deployment(service).spec.replicas).toBeUndefined();
  });

  it("lets every service finish its stop: grace period > preStop pause + the runtime's forced-exit limit", () => {
    const grace = shutdownGraceSeconds();
    const tooShort: string[] = [];
    for (const service of SERVICES) {
      const d = deployment(service);
      // Kubernetes' default when unset.
      const period = template(d).spec.terminationGracePeriodSeconds ?? 30;
      const needed = preStopSeconds(mainContainer(d)) + grace;
      if (period <= needed) tooShort.push(`${service}: terminationGracePeriodSeconds ${period}, needs more than ${needed} (preStop + SHUTDOWN_GRACE_MS)`);
    }
    expect(tooShort).toEqual([]);
    // The gateway takes traffic through its Service: it pauses until its endpoint is gone.
    expect(preStopSeconds(mainContainer(deployment("api-gateway")))).toBeGreaterThan(0);
  });

  it("runs every container as non-root, on a read-only root file system with a writable /tmp, within resource limits", () => {
    for (const m of workloads()) {
      const pod = template(m).spec;
      for (const c of pod.containers) {
        const where = `${id(m)} container ${c.name}`;
        expect({ [where]: c.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot }).toEqual({ [where]: true });
        // A non-numeric image user (`node`) cannot be verified as non-root by the kubelet.
        expect({ [where]: c.securityContext?.runAsUser ?? pod.securityContext?.runAsUser }).toEqual({ [where]: expect.any(Number) });
        expect({ [where]: c.securityContext?.readOnlyRootFilesystem }).toEqual({ [where]: true });
        expect({ [where]: c.securityContext?.allowPrivilegeEscalation }).toEqual({ [where]: false });
        const tmp = c.volumeMounts?.find((v) => v.mountPath === "/tmp");
        expect({ [where]: pod.volumes?.find((v) => v.name === tmp?.name)?.emptyDir }).toEqual({ [where]: expect.anything() });
        for (const kind of ["requests", "limits"] as const) {
          for (const resource of ["cpu", "memory"]) expect({ [where]: c.resources?.[kind]?.[resource] }).toEqual({ [where]: expect.anything() });
        }
      }
    }
  });

  it("keeps documents in an S3 bucket by default: no PersistentVolumeClaim, the bucket's credentials for the services that read or write documents", () => {
    expect(ofKind("PersistentVolumeClaim").map(id)).toEqual([]);
    for (const service of ["api-gateway", "casefile-worker", "notifier"] as const) {
      const d = deployment(service);
      const config = filledConfig(d);
      expect({ [service]: [config.STORAGE_BACKEND, config.S3_BUCKET !== undefined] }).toEqual({ [service]: ["s3", true] });
      // From the Secret: both keys, or neither (the pod's own identity), never one.
      const env = resolveEnv(d, mainContainer(d), FILLED).values;
      expect({ [service]: [env.S3_ACCESS_KEY_ID !== undefined, env.S3_SECRET_ACCESS_KEY !== undefined] }).toEqual({ [service]: [true, true] });
      const volumes = template(d).spec.volumes ?? [];
      expect({ [service]: volumes.filter((v) => v.persistentVolumeClaim).map((v) => v.name) }).toEqual({ [service]: [] });
    }
  });

  it("stages the gateway's uploads on an emptyDir at STORAGE_DIR", () => {
    const d = deployment("api-gateway");
    const dir = settingsOf(d).STORAGE_DIR;
    const mount = mainContainer(d).volumeMounts?.find((v) => dir === v.mountPath || dir.startsWith(`${v.mountPath}/`));
    expect(mount?.readOnly ?? false).toBe(false);
    expect(template(d).spec.volumes?.find((v) => v.name === mount?.name)?.emptyDir).toEqual(expect.anything());
  });

  it("mounts the seal P12 from a Secret into the casefile-worker at SEAL_P12_PATH", () => {
    const d = deployment("casefile-worker");
    const c = mainContainer(d);
    const p12 = settingsOf(d).SEAL_P12_PATH;
    expect(p12).toBeDefined();
    const mount = c.volumeMounts?.find((v) => p12!.startsWith(`${v.mountPath}/`) || (v.subPath !== undefined && p12 === v.mountPath));
    const volume = template(d).spec.volumes?.find((v) => v.name === mount?.name);
    expect(volume?.secret?.secretName).toBeDefined();
    const fileInVolume = mount?.subPath ?? path.relative(mount!.mountPath, p12!);
    const key = volume?.secret?.items ? volume.secret.items.find((i) => i.path === fileInVolume)?.key : fileInVolume;
    expect(key).toBeDefined();
    const secret = named("Secret", volume!.secret!.secretName);
    expect(Object.keys(secretValues(secret!))).toContain(key);
    // The seal reaches the casefile-worker only.
    for (const other of SERVICES.filter((s) => s !== "casefile-worker")) {
      const secrets = (template(deployment(other)).spec.volumes ?? []).map((v) => v.secret?.secretName);
      expect({ [other]: secrets }).toEqual({ [other]: expect.not.arrayContaining([volume!.secret!.secretName]) });
    }
  });
});
