import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { EsignClient } from "@esign/sdk";
import { TEST_ENCRYPTION_KEY } from "../support/api";
import { makePdf } from "../support/pdf";
import { freePort } from "../support/ports";
import { REPO_ROOT } from "../support/services";
import { startSystem, type System } from "../support/system";
import { createWorld, eventually, type World } from "../support/webhook-world";

/*
 * The README's examples run as written. Each fenced block that starts with `// example: NAME` is
 * written to a temporary file inside packages/sdk (so `import ... from "@esign/sdk"` resolves through
 * the package's own `exports`) and run with `node --import tsx` against the running system.
 */

const SDK_DIR = path.join(REPO_ROOT, "packages/sdk");
const README = path.join(SDK_DIR, "README.md");

let world: World;
let system: System;
let creds: CustomerCredentials;
let tmp: string;
const written: string[] = [];
const children: ChildProcess[] = [];

function example(name: string): string {
  const readme = readFileSync(README, "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const found = blocks.filter((b) => b.startsWith(`// example: ${name}\n`));
  if (found.length !== 1) throw new Error(`README.md must hold exactly one \`// example: ${name}\` block, found ${found.length}`);
  const file = path.join(SDK_DIR, `.readme-example-${name}-${randomBytes(4).toString("hex")}.ts`);
  writeFileSync(file, found[0]!);
  written.push(file);
  return file;
}

function run(file: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", file], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const result = { stdout: "", stderr: "", exited: new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))) };
  child.stdout.on("data", (d: Buffer) => (result.stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (result.stderr += d.toString()));
  return result;
}

beforeAll(async () => {
  world = await createWorld("sdk_readme");
  system = await startSystem(["casefile-worker", "webhook-dispatcher"], world.env(), { JOB_POLL_LIMIT_PER_MINUTE: "0" });
  creds = await createCustomer(world.db, { name: "README customer" }, TEST_ENCRYPTION_KEY);
  tmp = mkdtempSync(path.join(os.tmpdir(), "esign-sdk-readme-"));
  writeFileSync(path.join(tmp, "contract.pdf"), await makePdf("README contract"));
  writeFileSync(path.join(tmp, "appendix.pdf"), await makePdf("README appendix"));
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const f of written) rmSync(f, { force: true });
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  await system?.stop();
  await world?.close();
});

describe("packages/sdk/README.md", () => {
  const hookUrl = "http://127.0.0.1:9/esign/webhooks";

  it("the quickstart creates a case file from two PDF paths, prints the signing links and subscribes an endpoint", async () => {
    const file = example("quickstart");
    const started = Date.now();
    const p = run(file, {
      ESIGN_BASE_URL: system.gateway.url,
      ESIGN_CLIENT_ID: creds.clientId,
      ESIGN_CLIENT_SECRET: creds.clientSecret,
      ESIGN_CONTRACT_PDF: path.join(tmp, "contract.pdf"),
      ESIGN_APPENDIX_PDF: path.join(tmp, "appendix.pdf"),
      ESIGN_WEBHOOK_URL: hookUrl,
    });
    const code = await p.exited;
    if (code !== 0) throw new Error(`quickstart exited ${code}\nstdout:\n${p.stdout}\nstderr:\n${p.stderr}`);
    const links = [...p.stdout.matchAll(/^Signing link for (.+) \((\w+)\): (\S+)$/gm)];
    expect(links.map((m) => [m[1], m[2]])).toEqual([
      ["Alice Andersen", "Employee"],
      ["Bob Berg", "Manager"],
    ]);
    for (const m of links) expect(m[3]).toMatch(new RegExp(`^${system.gateway.url}/sign/[A-Za-z0-9_-]{43}$`));
    expect(p.stdout).toMatch(/^Case file \d+ created \(status 1\)\.$/m);
    expect(p.stderr).toBe("");
    // The example keeps the default 5 s job polling; the job is done by the second poll at the latest.
    expect(Date.now() - started).toBeLessThan(30_000);

    const sdk = new EsignClient({ baseUrl: system.gateway.url, credentials: { clientId: creds.clientId, clientSecret: creds.clientSecret } });
    const subs = await sdk.subscriptions.list();
    expect(subs.filter((s) => s.endpoint === hookUrl)).toHaveLength(1);
    expect(p.stdout).toContain(
      `Subscription ${subs.find((s) => s.endpoint === hookUrl)!.id} delivers sign.casefile.completed, sign.signer.signed to ${hookUrl}.`,
    );
  }, 60_000);

  it("the Express receiver verifies a delivery, acknowledges a repeat and refuses a forgery", async () => {
    const sdk = new EsignClient({ baseUrl: system.gateway.url, credentials: { clientId: creds.clientId, clientSecret: creds.clientSecret } });
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}/esign/webhooks`;
    const sub = await sdk.subscriptions.create({ eventTypes: ["sign.casefile.completed"], endpoint });
    try {
      const p = run(example("express-receiver"), { ESIGN_WEBHOOK_SECRET: sub.secret, PORT: String(port) });
      await eventually(
        async () => {
          if (p.stderr !== "") throw new Error(`the receiver wrote to stderr:\n${p.stderr}`);
          return p.stdout.includes(`listening on ${endpoint}`);
        },
        20_000,
        "receiver listening",
      );

      const { eventId } = await sdk.subscriptions.sendTest(sub.id);
      await eventually(async () => p.stdout.includes(`verified webhook.subscription.test ${eventId}`), 15_000, "verified line");
      await sdk.subscriptions.redeliver(sub.id, eventId);
      const page = await eventually(
        async () => {
          const d = await sdk.subscriptions.deliveries(sub.id);
          return d.data.length === 2 ? d : undefined;
        },
        15_000,
        "two attempts",
      );
      // The first answer is the 204 of a verified event; the repeat is acknowledged (200), not handled again.
      expect(page.data.map((a) => [a.eventId, a.outcome, a.httpStatus])).toEqual([
        [eventId, "success", 200],
        [eventId, "success", 204],
      ]);
      expect(p.stdout.split(`verified webhook.subscription.test ${eventId}`)).toHaveLength(2);

      const forged = await fetch(endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-event-id": "forged",
          "x-event-type": "sign.casefile.completed",
          "x-event-signature": `t=${Math.floor(Date.now() / 1000)},h=x-event-id x-event-type,v1=${"0".repeat(64)}`,
        },
        body: "{}",
      });
      expect(forged.status).toBe(400);
      expect(p.stderr).toBe("");
    } finally {
      await sdk.subscriptions.delete(sub.id);
    }
  }, 60_000);
});
