import path from "node:path";
import { podman, ROOT } from "../../scripts/deploy/podman";
import { freePort } from "../support/ports";
import { composeServiceToPod, loadCompose, startOrder, type ComposeFile } from "./support/compose-to-kube";
import { createCustomerInImage, createDeployWorld, type DeployWorld } from "./support/deploy-world";
import { recordFigures } from "./support/figures";
import { startHttpsReceiver, type HttpsReceiver } from "./support/https-receiver";
import { containersOf, kubeDown, kubePlay, logsOf, waitExit, waitReady, type KubeObject } from "./support/kube-play";
import { smokeTest } from "./support/smoke";

/*
 * docker/compose.yaml, run: its migrate job and its four services from the images pnpm test:deploy
 * built, each a pod of `podman kube play` in the order of the file's depends_on (support/compose-to-kube.ts
 * says why not podman-compose), then the smoke test through the containers, then everything torn down.
 * Documents stay in the compose file's `files` volume (the local backend, shared by the gateway, the
 * casefile-worker and the notifier); deploy/k8s's suite runs them on S3.
 *
 * What differs from `docker compose up` on a workstation, all of it following from host networking:
 * PostgreSQL and Redis are this machine's (support/deploy-world.ts), so compose's own postgres and
 * redis services are not started and DATABASE_URL, REDIS_URL and QUEUE_PREFIX point at this run's
 * database and prefix; the services listen on 127.0.0.1 at free ports instead of 0.0.0.0:3000-3003;
 * the webhook receiver's CA is mounted into the dispatcher (NODE_EXTRA_CA_CERTS).
 */

const APP = ["migrate", "api-gateway", "casefile-worker", "notifier", "webhook-dispatcher"];
const SERVICES = APP.slice(1);

let world: DeployWorld;
let receiver: HttpsReceiver;
let compose: ComposeFile;
const ports: Record<string, number> = {};
const played: string[] = [];

async function diagnostics(): Promise<string> {
  const out: string[] = [];
  for (const s of APP) for (const c of await containersOf(`${compose.name}-${s}`)) out.push(`--- ${c}\n${await logsOf(c, 30)}`);
  return out.join("\n");
}

beforeAll(async () => {
  world = await createDeployWorld("compose");
  receiver = await startHttpsReceiver(world.tls);
  for (const s of SERVICES) ports[s] = await freePort();
  compose = loadCompose(path.join(ROOT, "docker/compose.yaml"), {
    ...world.secrets,
    SEAL_P12_FILE: world.seal.file,
    SEAL_P12_PASSWORD: world.seal.password,
    PUBLIC_BASE_URL: world.publicBaseUrl,
    ESIGN_TAG: world.tag,
  });
  compose.name = `esign-compose-${world.name}`.slice(0, 60).replace(/-+$/, "");
});

afterAll(async () => {
  for (const file of played.reverse()) await kubeDown(file);
  await podman(["volume", "rm", "--force", `${compose.name}-files`, `${compose.name}-outbox`], { allowFailure: true });
  await receiver?.close();
  await world?.close();
});

function podFor(service: string): KubeObject {
  return composeServiceToPod(compose, service, {
    image: (_s, declared) => `localhost/${declared}`,
    override: (s, env) => ({
      ...env,
      HOST: "127.0.0.1",
      DATABASE_URL: world.databaseUrl,
      REDIS_URL: world.redisUrl,
      QUEUE_PREFIX: world.queuePrefix,
      ...(s === "api-gateway" ? { PORT: String(ports[s]) } : {}),
      ...(s in ports && s !== "api-gateway" ? { HEALTH_PORT: String(ports[s]) } : {}),
      WEBHOOK_ALLOWED_PRIVATE_NETWORKS: "127.0.0.1/32",
      RATE_LIMIT_SCALE: "100",
      ...(s === "webhook-dispatcher" ? { NODE_EXTRA_CA_CERTS: "/etc/esign-test-ca/ca.pem" } : {}),
    }),
    mounts: (s) => (s === "webhook-dispatcher" ? [{ hostPath: path.dirname(world.tls.caFile), mountPath: "/etc/esign-test-ca" }] : []),
  });
}

describe("docker/compose.yaml through podman kube play", () => {
  it("starts in the order of depends_on: the migration (no tsx in the image) first, then the four services, each on a read-only root file system", async () => {
    const order = startOrder(compose, APP);
    expect(order).toEqual([["migrate"], SERVICES]);

    const file = path.join(world.dir, "compose-migrate.yaml");
    played.push(file);
    await kubePlay([podFor("migrate")], file);
    const [migrate] = await containersOf(`${compose.name}-migrate`);
    expect(await waitExit(migrate!)).toBe(0);
    expect(await logsOf(migrate!)).toMatch(/applied \d+ migration\(s\)/);

    const servicesFile = path.join(world.dir, "compose-services.yaml");
    const started = Date.now();
    played.push(servicesFile);
    await kubePlay(SERVICES.map(podFor), servicesFile);
    const ready: Record<string, number> = {};
    for (const s of SERVICES) ready[s] = await waitReady(`http://127.0.0.1:${ports[s]}/readyz`, started, 120_000, diagnostics);
    for (const s of SERVICES) {
      const [c] = await containersOf(`${compose.name}-${s}`);
      const inspected = await podman(["inspect", c!, "--format", "{{.HostConfig.ReadonlyRootfs}} {{.Config.User}}"]);
      expect({ [s]: inspected.stdout.trim() }).toEqual({ [s]: "true 1000:1000" });
    }
    recordFigures("compose", { msFromKubePlayToReady: ready });
  });

  it("passes the smoke test: token, create, poll, sign, the sealed PDF, a webhook delivered over https and verified", async () => {
    const creds = await createCustomerInImage(world, "Compose smoke");
    const result = await smokeTest(`http://127.0.0.1:${ports["api-gateway"]}`, creds, receiver).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await diagnostics()}`);
    });
    expect(result.signatures).toBeGreaterThanOrEqual(1);
    expect(result.deliveries.filter((d) => d.eventType === "sign.casefile.completed")).toEqual([{ eventType: "sign.casefile.completed", verified: true }]);
    expect(result.deliveries.every((d) => d.verified)).toBe(true);
    recordFigures("compose", { smoke: result });
  });
});
