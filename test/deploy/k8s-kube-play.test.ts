import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { podman } from "../../scripts/deploy/podman";
import { freePort } from "../support/ports";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { createCustomerInImage, createDeployWorld, type DeployWorld } from "./support/deploy-world";
import { recordFigures } from "./support/figures";
import { startHttpsReceiver, type HttpsReceiver } from "./support/https-receiver";
import { forKubePlay, readManifests, type KubePlayRun } from "./support/k8s-for-kube-play";
import { containersOf, kubeDown, kubePlay, logsOf, waitExit, waitReady } from "./support/kube-play";
import { smokeTest } from "./support/smoke";

/*
 * deploy/k8s, run: the manifests through `podman kube play` (support/k8s-for-kube-play.ts lists each
 * change podman 4.3.1 and one machine need), the migration first, then the four Deployments with their
 * security contexts (non-root uid 1000, read-only root file system, no capabilities), documents in the
 * S3 bucket (the manifests' default), mail over SMTP; then the smoke test, then everything torn down.
 */

const SERVICES = ["api-gateway", "casefile-worker", "notifier", "webhook-dispatcher"] as const;

let world: DeployWorld;
let receiver: HttpsReceiver;
let smtp: SmtpSink;
let plan: KubePlayRun;
const played: string[] = [];

async function diagnostics(): Promise<string> {
  const out: string[] = [];
  for (const pod of ["esign-migrate", ...SERVICES.map((s) => `${s}-pod-0`)])
    for (const c of await containersOf(pod)) out.push(`--- ${c}\n${await logsOf(c, 30)}`);
  return out.join("\n");
}

beforeAll(async () => {
  world = await createDeployWorld("k8s");
  receiver = await startHttpsReceiver(world.tls);
  smtp = await startSmtpSink();
  const ports: Record<string, number> = {};
  for (const s of SERVICES) ports[s] = await freePort();
  plan = forKubePlay(readManifests(), {
    run: world.name,
    image: world.image,
    configMap: {
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: world.publicBaseUrl,
      QUEUE_PREFIX: world.queuePrefix,
      S3_ENDPOINT: world.s3.endpoint,
      S3_BUCKET: world.bucket,
      WEBHOOK_ALLOWED_PRIVATE_NETWORKS: "127.0.0.1/32",
      RATE_LIMIT_SCALE: "100",
    },
    secrets: {
      "esign-secrets": {
        ...world.secrets,
        DATABASE_URL: world.databaseUrl,
        REDIS_URL: world.redisUrl,
        SEAL_P12_PASSWORD: world.seal.password,
        SMTP_URL: smtp.url,
        S3_ACCESS_KEY_ID: world.s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: world.s3.secretAccessKey,
      },
    },
    secretFolders: { "esign-seal": world.seal.dir },
    ports,
    extraEnv: { "webhook-dispatcher": { NODE_EXTRA_CA_CERTS: "/etc/esign-test-ca/ca.pem" } },
    extraMounts: { "webhook-dispatcher": [{ hostPath: path.dirname(world.tls.caFile), mountPath: "/etc/esign-test-ca" }] },
  });
  for (const [name, values] of Object.entries(plan.secrets)) {
    await podman(["secret", "rm", name], { allowFailure: true });
    const encoded = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v).toString("base64")]));
    // From a file: podman takes `-` only from a named pipe, not the socket a child process's stdin is.
    const file = path.join(world.dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(encoded), { mode: 0o600 });
    await podman(["secret", "create", name, file]);
    rmSync(file);
  }
});

afterAll(async () => {
  for (const file of played.reverse()) await kubeDown(file);
  for (const name of Object.keys(plan?.secrets ?? {})) await podman(["secret", "rm", name], { allowFailure: true });
  if (plan?.volumes.length) await podman(["volume", "rm", "--force", ...plan.volumes], { allowFailure: true });
  await receiver?.close();
  await smtp?.stop();
  await world?.close();
});

describe("deploy/k8s through podman kube play", () => {
  it("plays what kube play runs (the rest is schema-checked): the migration Job's pod, the ConfigMap, the four Deployments", () => {
    expect(plan.objects.map((o) => `${o.kind} ${o.metadata.name}`)).toEqual(["ConfigMap esign-config", ...SERVICES.map((s) => `Deployment ${s}`)]);
    expect(plan.notPlayed.sort()).toEqual(
      [
        ...SERVICES.flatMap((s) => [`Service ${s}`, `PodDisruptionBudget ${s}`]),
        "HorizontalPodAutoscaler api-gateway",
        "ScaledObject casefile-worker",
        "ScaledObject notifier",
        "ScaledObject webhook-dispatcher",
      ].sort(),
    );
  });

  it("runs the migration (no tsx), then the four services as uid 1000 on read-only root file systems, documents in the S3 bucket", async () => {
    const migrateFile = path.join(world.dir, "k8s-migrate.yaml");
    // A ConfigMap reaches only the pods of its own YAML stream in kube play: it goes with each.
    const configMap = plan.objects.filter((o) => o.kind === "ConfigMap");
    played.push(migrateFile);
    await kubePlay([...configMap, plan.migrate], migrateFile);
    const [migrate] = await containersOf("esign-migrate");
    expect(await waitExit(migrate!)).toBe(0);
    expect(await logsOf(migrate!)).toMatch(/applied \d+ migration\(s\)/);

    const file = path.join(world.dir, "k8s-services.yaml");
    const started = Date.now();
    played.push(file);
    await kubePlay(plan.objects, file);
    const ready: Record<string, number> = {};
    for (const s of SERVICES) ready[s] = await waitReady(`http://127.0.0.1:${plan.ports[s]}/readyz`, started, 120_000, diagnostics);
    for (const s of SERVICES) {
      const [c] = await containersOf(`${s}-pod-0`);
      const inspected = await podman(["inspect", c!, "--format", "{{.HostConfig.ReadonlyRootfs}}"]);
      // What the process really has: its user, and no capability at all (drop: ["ALL"]).
      const status = await podman(["exec", c!, "sh", "-c", "id -u; grep CapEff /proc/1/status"]);
      expect({
        [s]: [
          inspected.stdout.trim(),
          ...status.stdout
            .trim()
            .split("\n")
            .map((l) => l.replace(/\s+/g, " ")),
        ],
      }).toEqual({
        [s]: ["true", "1000", "CapEff: 0000000000000000"],
      });
    }
    recordFigures("k8s", { msFromKubePlayToReady: ready });
  });

  it("passes the smoke test with documents in the bucket and mail over SMTP", async () => {
    const creds = await createCustomerInImage(world, "Kubernetes smoke");
    const result = await smokeTest(`http://127.0.0.1:${plan.ports["api-gateway"]}`, creds, receiver).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await diagnostics()}`);
    });
    expect(result.signatures).toBeGreaterThanOrEqual(1);
    expect(result.deliveries.filter((d) => d.eventType === "sign.casefile.completed")).toEqual([{ eventType: "sign.casefile.completed", verified: true }]);
    expect(result.deliveries.every((d) => d.verified)).toBe(true);
    // The upload and the sealed document are objects of the bucket (no files volume exists).
    const keys = world.s3.objectKeys(world.bucket);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys.every((k) => /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(k))).toBe(true);
    // The signer's mail went out over SMTP from the notifier's container.
    await smtp.waitFor((m) => m.to.includes("alice@example.com"), 30_000);
    recordFigures("k8s", { smoke: result, objectsInBucket: keys.length });
  });
});
