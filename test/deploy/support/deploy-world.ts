import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dropDatabase, ensureDatabase } from "@esign/db";
import { createDevelopmentSealP12 } from "@esign/seal";
import { imageRef } from "../../../scripts/deploy/images";
import { DEPLOY_DATA, podman, run } from "../../../scripts/deploy/podman";
import { startS3Server, type S3Server } from "../../support/s3-server";

/**
 * What the containers of one deploy suite run against, all on this machine's loopback (containers use
 * the host's network: every port is chosen free). The machine's own PostgreSQL and Redis (ports 5432 and
 * 6379 are theirs) with a database and a Redis prefix of this run, dropped at the end: the platform's
 * images are what is under test here, and images of PostgreSQL and Redis made from Debian's packages
 * would add a minute of building to every cold run and no coverage of our code. An S3 protocol server
 * (s3rver) with the documents' bucket; a TLS CA and a certificate for the webhook receiver on
 * 127.0.0.1 (production delivers over https only); a seal P12; strong random keys; production mode
 * with an https PUBLIC_BASE_URL.
 */
export interface DeployWorld {
  name: string;
  /** The tag of the images under test (scripts/test-deploy.ts builds them). */
  tag: string;
  dir: string;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  s3: S3Server;
  bucket: string;
  tls: { caFile: string; certFile: string; keyFile: string };
  seal: { dir: string; file: string; password: string };
  secrets: { JWT_SECRET: string; ENCRYPTION_KEY: string; METRICS_TOKEN: string };
  publicBaseUrl: string;
  /** The platform's image under test (every service and the migration run it, each with its command). */
  image: string;
  /** Production settings every container of the platform gets. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export const DEPLOY_TAG = process.env.ESIGN_DEPLOY_TAG ?? "test";
export const PUBLIC_BASE_URL = "https://esign.test";

/** A CA, and a server certificate it issued for 127.0.0.1 (openssl, as an operator would make one). */
async function makeTls(dir: string): Promise<DeployWorld["tls"]> {
  const caKey = path.join(dir, "ca.key");
  const caFile = path.join(dir, "ca.pem");
  const keyFile = path.join(dir, "receiver.key");
  const csr = path.join(dir, "receiver.csr");
  const certFile = path.join(dir, "receiver.pem");
  const ext = path.join(dir, "receiver.ext");
  await run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", caFile, "-days", "2", "-subj", "/CN=esign deploy test CA"]);
  await run("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", csr, "-subj", "/CN=127.0.0.1"]);
  writeFileSync(ext, "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n");
  await run("openssl", ["x509", "-req", "-in", csr, "-CA", caFile, "-CAkey", caKey, "-CAcreateserial", "-out", certFile, "-days", "2", "-extfile", ext]);
  chmodSync(caFile, 0o644);
  return { caFile, certFile, keyFile };
}

export async function createDeployWorld(name: string): Promise<DeployWorld> {
  const run = `${name}-${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
  const dir = path.join(DEPLOY_DATA, "runs", run);
  mkdirSync(dir, { recursive: true });
  const pg = new URL(process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  pg.pathname = `/esign_deploy_${run.replace(/-/g, "_")}`;
  const databaseUrl = pg.toString();
  await ensureDatabase(databaseUrl);
  const bucket = "esign-documents";
  const s3 = await startS3Server([bucket]);
  const tls = await makeTls(dir);
  // The seal, readable by the containers' user (uid 1000) only.
  const sealDir = path.join(dir, "seal");
  mkdirSync(sealDir, { recursive: true });
  const password = randomBytes(12).toString("hex");
  const sealFile = path.join(sealDir, "seal.p12");
  writeFileSync(sealFile, await createDevelopmentSealP12(password, { organization: "E-Sign deploy test" }), { mode: 0o400 });
  chownSync(sealFile, 1000, 1000);
  const secrets = {
    JWT_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    METRICS_TOKEN: randomBytes(16).toString("hex"),
  };
  const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const world: DeployWorld = {
    name: run,
    tag: DEPLOY_TAG,
    dir,
    databaseUrl,
    redisUrl,
    queuePrefix: `esign-deploy-${run}`,
    s3,
    bucket,
    tls,
    seal: { dir: sealDir, file: sealFile, password },
    secrets,
    publicBaseUrl: PUBLIC_BASE_URL,
    image: imageRef(DEPLOY_TAG),
    env: () => ({
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: world.queuePrefix,
      ...secrets,
      LOG_LEVEL: "info",
      // The receiver is on this machine's loopback: allowed by name, https still required.
      WEBHOOK_ALLOWED_PRIVATE_NETWORKS: "127.0.0.1/32",
      // Every request of the suites comes from 127.0.0.1.
      RATE_LIMIT_SCALE: "100",
    }),
    async close() {
      await s3.close();
      await dropDatabase(databaseUrl).catch(() => undefined);
      if (process.env.KEEP_TEST_DATA !== "1") rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** `podman run --rm` of the admin CLI in the image: a customer with API credentials. */
export async function createCustomerInImage(world: DeployWorld, name: string): Promise<{ clientId: string; clientSecret: string; customerId: number }> {
  const env = world.env();
  const out = await podman([
    "run",
    "--rm",
    "--read-only",
    ...["DATABASE_URL", "ENCRYPTION_KEY", "JWT_SECRET", "METRICS_TOKEN", "NODE_ENV", "PUBLIC_BASE_URL"].flatMap((k) => ["-e", `${k}=${env[k]}`]),
    world.image,
    "node",
    "scripts/dist/cli.cjs",
    "customers",
    "create",
    "--name",
    name,
  ]);
  return JSON.parse(out.stdout) as { clientId: string; clientSecret: string; customerId: number };
}
