import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { EVENT_TYPES, EsignApiError, EsignClient, verifyWebhook } from "@esign/sdk";
import { TEST_ENCRYPTION_KEY } from "../support/api";
import { startReceiver, type Receiver } from "../support/receiver";
import { REPO_ROOT } from "../support/services";
import { startSystem, type System } from "../support/system";
import { createWorld, type World } from "../support/webhook-world";

/*
 * scripts/cli-listen.ts as a user runs it: a child process against the running gateway and webhook
 * dispatcher (a world of its own, so the dispatcher touches no other test file's deliveries).
 */

let world: World;
let system: System;
let receiver: Receiver;
let creds: CustomerCredentials;
let sdk: EsignClient;

class Cli {
  stdout = "";
  stderr = "";
  readonly exited: Promise<number | null>;
  private waiters = new Set<() => void>();

  constructor(readonly child: ChildProcess) {
    child.stdout?.on("data", (d: Buffer) => {
      this.stdout += d.toString();
      for (const w of this.waiters) w();
    });
    child.stderr?.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  /** Resolves with the first stdout line matching `pattern`. */
  line(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (const l of this.stdout.split("\n")) {
          const m = pattern.exec(l);
          if (m) {
            cleanup();
            resolve(m);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no line matching ${pattern} after ${timeoutMs} ms\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }
}

const running: Cli[] = [];

function listen(args: string[]): Cli {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "scripts/cli-listen.ts"), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ESIGN_BASE_URL: "", ESIGN_CLIENT_ID: "", ESIGN_CLIENT_SECRET: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const cli = new Cli(child);
  running.push(cli);
  return cli;
}

const baseArgs = () => ["--base-url", system.gateway.url, "--client-id", creds.clientId, "--client-secret", creds.clientSecret];

beforeAll(async () => {
  world = await createWorld("sdk_cli");
  receiver = await startReceiver();
  system = await startSystem(["webhook-dispatcher"], world.env());
  creds = await createCustomer(world.db, { name: "CLI customer" }, TEST_ENCRYPTION_KEY);
  sdk = new EsignClient({ baseUrl: system.gateway.url, credentials: { clientId: creds.clientId, clientSecret: creds.clientSecret } });
}, 60_000);

afterAll(async () => {
  for (const cli of running) cli.kill("SIGKILL");
  await system?.stop();
  await receiver?.close();
  await world?.close();
});

describe("cli-listen", () => {
  it("creates a temporary subscription, prints verified events, forwards them, and deletes the subscription on SIGTERM", async () => {
    const cli = listen([...baseArgs(), "--events", "sign.casefile.completed,sign.signer.signed", "--forward-to", receiver.url("/forwarded")]);
    const [, endpoint] = await cli.line(/^Listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks)$/);
    const [, subscriptionId] = await cli.line(/^Temporary subscription ([0-9a-f-]{36}) /);
    const [, secret] = await cli.line(/^Webhook secret of this subscription .*: (\S+)$/);

    const sub = await sdk.subscriptions.get(subscriptionId!);
    expect(sub).toMatchObject({ endpoint, isActive: true, secret, eventTypes: ["sign.casefile.completed", "sign.signer.signed"] });

    const { eventId } = await sdk.subscriptions.sendTest(subscriptionId!);
    const [line] = await cli.line(new RegExp(`webhook\\.subscription\\.test\\s+${eventId}\\s+verified$`));
    expect(line).toContain("verified");
    await cli.line(new RegExp(`-> forwarded ${eventId} to ${receiver.url("/forwarded").replace(/[/.]/g, "\\$&")}: 200 \\(\\d+ ms\\)`));

    // The forwarded request is the delivery itself: same raw body and signed headers, so it verifies.
    const [forwarded] = await receiver.waitFor("/forwarded", 1);
    expect(forwarded!.headers["x-event-id"]).toBe(eventId);
    expect(forwarded!.headers["x-event-type"]).toBe("webhook.subscription.test");
    expect(await verifyWebhook({ secret: secret!, rawBody: forwarded!.rawBody, headers: forwarded!.headers })).toMatchObject({ ok: true, eventId });

    // A redelivery keeps its event id: still a valid signature, reported as a repeat.
    await sdk.subscriptions.redeliver(subscriptionId!, eventId);
    await cli.line(new RegExp(`webhook\\.subscription\\.test\\s+${eventId}\\s+verified, repeated event id`));

    cli.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
    expect(cli.stdout).toContain(`Deleted subscription ${subscriptionId}.`);
    const gone = await sdk.subscriptions.get(subscriptionId!).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(EsignApiError);
    expect(gone).toMatchObject({ status: 404 });
    expect((await sdk.subscriptions.list()).map((s) => s.id)).not.toContain(subscriptionId);
  });

  it("--events all subscribes to every type; Ctrl-C (SIGINT) deletes it too", async () => {
    const cli = listen([...baseArgs(), "--events", "all"]);
    const [, subscriptionId] = await cli.line(/^Temporary subscription ([0-9a-f-]{36}) \(all event types\)/);
    expect((await sdk.subscriptions.get(subscriptionId!)).eventTypes).toEqual([...EVENT_TYPES]);
    cli.kill("SIGINT");
    expect(await cli.exited).toBe(0);
    await expect(sdk.subscriptions.get(subscriptionId!)).rejects.toMatchObject({ status: 404 });
  });

  it("--max-per-second and --ordered set the subscription's controls; a delivery during a rotation's overlap shows both signatures", async () => {
    const cli = listen([...baseArgs(), "--events", "webhook.subscription.test", "--max-per-second", "5", "--ordered"]);
    const [, subscriptionId] = await cli.line(/^Temporary subscription ([0-9a-f-]{36}) \(webhook\.subscription\.test\), at most 5\/s, ordered per case file$/);
    expect(await sdk.subscriptions.get(subscriptionId!)).toMatchObject({ maxPerSecond: 5, ordered: true });
    await sdk.subscriptions.rotateSecret(subscriptionId!, { overlapSeconds: 600 });
    const { eventId } = await sdk.subscriptions.sendTest(subscriptionId!);
    // The CLI verifies with the secret it was given at the start (now the old one): still verified.
    await cli.line(new RegExp(`webhook\\.subscription\\.test  ${eventId}  verified, 2 signatures \\(secret rotation overlap\\)`));
    cli.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
  });

  it("refuses bad usage with exit code 2, and reports a refused subscription with exit code 1", async () => {
    const usage = listen(["--base-url", system.gateway.url]);
    expect(await usage.exited).toBe(2);
    expect(usage.stderr).toContain("usage:");

    const bad = listen([...baseArgs(), "--events", "sign.casefile.nope"]);
    expect(await bad.exited).toBe(1);
    expect(bad.stderr).toContain("Could not create the temporary subscription: 400 validation_failed");

    // A client secret is base64url and may begin with "-" (one in 64): given as its own argument it
    // is the secret, not an option (here a wrong one, which the gateway refuses).
    const dashed = listen(["--base-url", system.gateway.url, "--client-id", creds.clientId, "--client-secret", `-${creds.clientSecret}`, "--events", "all"]);
    expect(await dashed.exited).toBe(1);
    expect(dashed.stderr).not.toContain("ambiguous");
  });
});
