import { randomUUID } from "node:crypto";
import path from "node:path";
import { podman } from "../../scripts/deploy/podman";
import { getToken, postCreate, waitForJob } from "../support/api";
import { eventually } from "../support/eventually";
import { makePdf } from "../support/pdf";
import { pdfsig } from "../support/poppler";
import { freePort } from "../support/ports";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { createCustomerInImage, createDeployWorld, type DeployWorld } from "./support/deploy-world";
import { recordFigures } from "./support/figures";
import { startHttpsReceiver, type HttpsReceiver } from "./support/https-receiver";
import { logsOf, waitReady } from "./support/kube-play";
import { startLoadBalancer, type LoadBalancer } from "./support/load-balancer";

/*
 * A rolling replacement under traffic: two replicas of every service as containers of the image (the
 * documents in the S3 bucket, so any replica reads what another wrote), the gateways behind a balancer
 * that follows their readiness (support/load-balancer.ts, as a Kubernetes Service does), case files
 * created, signed and sealed through it all along; meanwhile one replica of each service is replaced
 * as a Deployment's rollout does (maxSurge 1, maxUnavailable 0): a new one started and ready, then the
 * old one sent SIGTERM (`podman stop`) and waited for. Nothing may be lost: every request answered by
 * a replica (none refused, none 5xx), every case file created, signed, sealed and its completion
 * webhook delivered and verified; every replaced replica said "draining" on /readyz before it went
 * (the gateway's seen by the balancer) and exited 0, not by force.
 */

const SERVICES = ["api-gateway", "casefile-worker", "notifier", "webhook-dispatcher"] as const;
type Service = (typeof SERVICES)[number];
/** Long enough for the balancer (checks every 200 ms) to take a draining gateway out. */
const DRAIN_DELAY_MS = 1500;
const JOURNEY_EVERY_MS = 400;
/**
 * Bounded load: on a quiet machine the rollout takes ~15 s (some 50 case files); on a loaded one it
 * takes longer and the journeys must not pile up without end (a machine at load 25 ran past 5 minutes).
 */
const MAX_JOURNEYS = 80;

interface Replica {
  service: Service;
  name: string;
  port: number;
  msToReady: number;
}

let world: DeployWorld;
let receiver: HttpsReceiver;
let smtp: SmtpSink;
let lb: LoadBalancer;
const replicas: Replica[] = [];
const started: string[] = [];

function serviceEnv(service: Service, port: number): Record<string, string> {
  return {
    ...world.env(),
    STORAGE_BACKEND: "s3",
    S3_BUCKET: world.bucket,
    S3_ENDPOINT: world.s3.endpoint,
    S3_ACCESS_KEY_ID: world.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: world.s3.secretAccessKey,
    SHUTDOWN_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
    ...(service === "api-gateway" ? { PORT: String(port), STORAGE_DIR: "/tmp/staging" } : { HEALTH_PORT: String(port) }),
    ...(service === "casefile-worker" ? { SEAL_P12_PATH: "/seal/seal.p12", SEAL_P12_PASSWORD: world.seal.password } : {}),
    ...(service === "notifier" ? { SMTP_URL: smtp.url } : {}),
    ...(service === "webhook-dispatcher" ? { NODE_EXTRA_CA_CERTS: "/etc/esign-test-ca/ca.pem" } : {}),
  };
}

/** `podman run` of one replica, as an orchestrator starts a pod; resolves when its /readyz answers 200. */
async function startReplica(service: Service, n: number): Promise<Replica> {
  const port = await freePort();
  const name = `${world.name}-${service}-${n}`;
  const mounts =
    service === "casefile-worker"
      ? ["-v", `${world.seal.dir}:/seal:ro`]
      : service === "webhook-dispatcher"
        ? ["-v", `${path.dirname(world.tls.caFile)}:/etc/esign-test-ca:ro`]
        : [];
  const env = Object.entries(serviceEnv(service, port)).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const since = Date.now();
  started.push(name);
  await podman([
    "run",
    "-d",
    "--name",
    name,
    "--read-only",
    "--stop-timeout",
    "30",
    ...mounts,
    ...env,
    world.image,
    "node",
    "--enable-source-maps",
    `services/${service}/dist/main.cjs`,
  ]);
  const msToReady = await waitReady(`http://127.0.0.1:${port}/readyz`, since, 60_000, () => logsOf(name));
  const replica = { service, name, port, msToReady };
  replicas.push(replica);
  if (service === "api-gateway") lb.add(name, port);
  return replica;
}

/** SIGTERM, then wait for the exit (as the kubelet does, within terminationGracePeriodSeconds). */
async function stopReplica(r: Replica): Promise<{ exitCode: number; ms: number; logs: string; sawDrainingOnReadyz: boolean }> {
  const since = Date.now();
  const stopping = podman(["stop", "--time", "30", r.name]);
  // A worker's readiness while it drains, read from outside as a probe would.
  const sawDraining =
    r.service === "api-gateway"
      ? Promise.resolve(false)
      : eventually(async () => (await readyzSays(r.port)) === "draining", 5000).then(
          () => true,
          () => false,
        );
  await stopping;
  const ms = Date.now() - since;
  const code = await podman(["inspect", r.name, "--format", "{{.State.ExitCode}}"]);
  return { exitCode: Number(code.stdout.trim()), ms, logs: await logsOf(r.name, 200), sawDrainingOnReadyz: await sawDraining };
}

async function readyzSays(port: number): Promise<string> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1000) });
    return ((await res.json()) as { status: string }).status;
  } catch {
    return "gone";
  }
}

interface Journey {
  caseFileId?: number;
  sealed?: boolean;
  error?: string;
}

/** One integrator's case file through the balancer: create, poll, sign, wait until sealed. */
async function journey(token: string, i: number): Promise<Journey> {
  const out: Journey = {};
  try {
    const payload = {
      caseFile: {
        title: `Rollout ${i}`,
        signers: [{ name: `Signer ${i}`, email: `signer${i}@example.com`, enableInsecureSigning: true, insecureSigningMethods: ["text"] }],
        documents: [{ title: "Contract", name: "contract.pdf" }],
      },
    };
    const created = await postCreate(lb.url, token, payload, [{ name: "contract.pdf", content: await makePdf(`Rollout contract ${i}`) }], {
      "Idempotency-Key": randomUUID(),
    });
    if (created.status !== 200) throw new Error(`create ${created.status}`);
    const job = await waitForJob(lb.url, created.body.jobs[0]!.uuid, created.body.jobs[0]!.payloadHash, 60_000);
    if (job.jobStatus !== "completed" || !job.result) throw new Error(`job ${job.jobStatus}`);
    out.caseFileId = job.result.data.caseFile.id;
    const signingToken = job.result.data.signingLinks[0]!.signingLink.split("/").pop()!;
    const signed = await fetch(`${lb.url}/sign/${signingToken}/sign`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ method: "text", value: `Signer ${i}` }),
    });
    if (signed.status !== 200) throw new Error(`sign ${signed.status}`);
    await eventually(async () => {
      const res = await fetch(`${lb.url}/api/v3/casefiles/${out.caseFileId}`, { headers: { "X-Auth-Token": token } });
      return res.status === 200 && ((await res.json()) as { status: number }).status === 5;
    }, 90_000);
    out.sealed = true;
  } catch (err) {
    out.error = (err as Error).message;
  }
  return out;
}

beforeAll(async () => {
  world = await createDeployWorld("rollout");
  receiver = await startHttpsReceiver(world.tls);
  smtp = await startSmtpSink({ maxMessages: 1000 });
  lb = await startLoadBalancer();
  await podman([
    "run",
    "--rm",
    "--read-only",
    ...Object.entries(world.env()).flatMap(([k, v]) => ["-e", `${k}=${v}`]),
    world.image,
    "node",
    "scripts/dist/migrate.cjs",
  ]);
});

afterAll(async () => {
  if (started.length > 0) await podman(["rm", "--force", "--time", "5", ...started], { allowFailure: true });
  await lb?.close();
  await receiver?.close();
  await smtp?.stop();
  await world?.close();
});

describe("a rolling replacement of one replica of each service under traffic", () => {
  it("loses nothing: every request answered, every case file sealed and its webhook delivered; the old replicas drain and exit 0", async () => {
    for (const s of SERVICES) for (const n of [1, 2]) await startReplica(s, n);
    await eventually(async () => lb.upstreams.every((u) => u.ready), 10_000);

    const creds = await createCustomerInImage(world, "Rollout");
    const token = await getToken(lb.url, creds);
    const sub = await fetch(`${lb.url}/webhook/api/v1/subscriptions`, {
      method: "POST",
      headers: { "X-Auth-Token": token, Authorization: "JWT", "content-type": "application/json" },
      body: JSON.stringify({ eventTypes: ["sign.casefile.completed"], endpoint: receiver.url }),
    });
    receiver.setSecret(((await sub.json()) as { secret: string }).secret);

    // Traffic from now until the rollout is over (and a little after).
    const journeys: Promise<Journey>[] = [];
    let trafficOn = true;
    const traffic = (async () => {
      for (let i = 0; trafficOn && i < MAX_JOURNEYS; i++) {
        journeys.push(journey(token, i));
        await new Promise((r) => setTimeout(r, JOURNEY_EVERY_MS));
      }
    })();
    await new Promise((r) => setTimeout(r, 2000));

    const stops: Record<string, Awaited<ReturnType<typeof stopReplica>>> = {};
    const rolloutStarted = Date.now();
    for (const s of SERVICES) {
      const old = replicas.find((r) => r.service === s)!;
      await startReplica(s, 3);
      stops[s] = await stopReplica(old);
    }
    const rolloutMs = Date.now() - rolloutStarted;
    await new Promise((r) => setTimeout(r, 2000));
    trafficOn = false;
    await traffic;
    const results = await Promise.all(journeys);

    // Each old replica: readiness false first (the gateway's seen by the balancer), a clean exit. Checked
    // first: a forced exit (requests still in flight after SHUTDOWN_GRACE_MS, on a starved machine) is
    // the cause of any reset below, and says so.
    const oldGateway = lb.upstreams.find((u) => u.name.endsWith("api-gateway-1"))!;
    expect(oldGateway.sawDraining).toBe(true);
    for (const s of SERVICES) {
      const stop = stops[s]!;
      // An exit other than 0 shows the replica's last log lines (a forced exit says why).
      expect({ [s]: [stop.exitCode, stop.exitCode === 0 ? "" : stop.logs.split("\n").slice(-6).join("\n")] }).toEqual({ [s]: [0, ""] });
      expect(stop.logs).toMatch(/"message":"shutting down"[\s\S]*"message":"stopped"/);
      expect(stop.logs).not.toMatch(/shutdown took too long/);
      if (s !== "api-gateway") expect({ [s]: stop.sawDrainingOnReadyz }).toEqual({ [s]: true });
    }

    // Nothing lost.
    expect(lb.failures).toEqual([]);
    // A 5xx comes with its replica's error and warning lines: the cause, kept where CI shows it.
    const serverErrorLogs = await Promise.all(
      lb.serverErrorUpstreams().map(async (name) =>
        [
          `${name}:`,
          ...(await logsOf(name, 2000))
            .split("\n")
            .filter((l) => /"level":"(error|warn)"/.test(l))
            .slice(-12),
        ].join("\n"),
      ),
    );
    expect({ serverErrors: lb.serverErrors, serverErrorLogs }).toEqual({ serverErrors: [], serverErrorLogs: [] });
    expect(results.filter((j) => j.error)).toEqual([]);
    const caseFiles = results.map((j) => j.caseFileId!);
    expect(new Set(caseFiles).size).toBe(results.length);
    for (const id of caseFiles) await receiver.waitFor("sign.casefile.completed", (d) => (d.body.payload as { id?: number }).id === id, 60_000);
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);

    // Two replicas read the bucket: the last sealed document, the same bytes from the replacement and the other gateway.
    const last = caseFiles.at(-1)!;
    const [replacement, other] = [replicas.find((r) => r.name.endsWith("api-gateway-3"))!, replicas.find((r) => r.name.endsWith("api-gateway-2"))!];
    const docs = await Promise.all(
      [replacement, other].map(async (g) => {
        const cf = (await (await fetch(`http://127.0.0.1:${g.port}/api/v3/casefiles/${last}`, { headers: { "X-Auth-Token": token } })).json()) as {
          documents: { id: number }[];
        };
        const res = await fetch(`http://127.0.0.1:${g.port}/api/v3/documents/${cf.documents[0]!.id}/content`, {
          headers: { "X-Auth-Token": token, accept: "application/pdf" },
        });
        return Buffer.from(await res.arrayBuffer());
      }),
    );
    expect(docs[0]!.equals(docs[1]!)).toBe(true);
    expect((await pdfsig(docs[0]!)).signatures.length).toBe(1);

    recordFigures("rollout", {
      caseFiles: results.length,
      sealed: results.filter((j) => j.sealed).length,
      webhooksDelivered: receiver.deliveries.length,
      rolloutMs,
      msFromPodmanRunToReady: Object.fromEntries(replicas.map((r) => [r.name.slice(world.name.length + 1), r.msToReady])),
      msToStop: Object.fromEntries(Object.entries(stops).map(([s, x]) => [s, x.ms])),
      servedByGateway: Object.fromEntries(lb.upstreams.map((u) => [u.name.slice(world.name.length + 1), u.served])),
      objectsInBucket: world.s3.objectKeys(world.bucket).length,
    });
  });
});
