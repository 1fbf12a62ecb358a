import { createApiClient, createUser, setOperator, type CustomerCredentials } from "@esign/accounts";
import { getToken, postCreate, TEST_ENCRYPTION_KEY, waitForJob, type JobAnswer } from "../support/api";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import { scrape, select, valueOf, type Sample } from "../support/prometheus";
import { startReceiver, type Receiver } from "../support/receiver";
import { startService, type ServiceName, type ServiceProcess } from "../support/services";
import { startSystem, type System } from "../support/system";
import { createWorld, eventually, type World } from "../support/webhook-world";

/*
 * Operator experience, end to end: /metrics on every service moved by real traffic, the queue
 * dashboard behind admin authentication, and JSON log lines that correlate and leak nothing.
 * A world of its own: the dispatcher relays every event of its database.
 */

const CREATES = 3;
// The retry ladder compressed so that 1 h is 200 ms: a receiver that always fails disables its
// subscription after ~7 s, with deliveries pending a retry in between.
const LADDER_SCALE = 200 / 3_600_000;
const JWT_SECRET = "observability-production-jwt-secret-0123456789";
const METRICS_TOKEN = "observability-metrics-token-0123";
const CREATE_ROUTE = "/send/api/v1/casefiles/20251022/create";

let world: World;
let system: System;
let receiver: Receiver;
let owner: CustomerCredentials;
let adminToken: string;
const extra: ServiceProcess[] = [];
// Every finished create job of the file: their signing links must never reach a log line.
// (`extra` services are stopped by their tests and kept for their logs.)
const answeredJobs: JobAnswer[] = [];

const service = (name: ServiceName) => system.services.find((s) => s.name === name)!;
const delta = (before: Sample[], after: Sample[], name: string, labels: Record<string, string> = {}) =>
  valueOf(after, name, labels) - valueOf(before, name, labels);

beforeAll(async () => {
  world = await createWorld("observability");
  receiver = await startReceiver();
  receiver.on("/down", () => ({ status: 500 }));
  system = await startSystem(
    ["casefile-worker", "webhook-dispatcher", "notifier"],
    world.env({ WEBHOOK_LADDER_SCALE: String(LADDER_SCALE), LOG_LEVEL: "info" }),
    { JOB_POLL_LIMIT_PER_MINUTE: "0" },
  );
  owner = await world.customer();
  adminToken = await getToken(system.gateway.url, owner);
});

afterAll(async () => {
  await Promise.all(extra.map((s) => s.stop()));
  await system?.stop();
  await receiver?.close();
  await world?.close();
});

describe("metrics", () => {
  it("every service serves /metrics with its service label and Node's default metrics, beside /healthz and /readyz", async () => {
    for (const svc of system.services) {
      const { samples } = await scrape(svc.url);
      const cpu = select(samples, "process_cpu_user_seconds_total");
      expect(cpu).toHaveLength(1);
      expect(cpu[0]!.labels.service).toBe(svc.name);
      expect(select(samples, "nodejs_eventloop_lag_seconds")).toHaveLength(1);
      expect(samples.every((s) => s.labels.service === svc.name)).toBe(true);
      expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${svc.url}/readyz`)).status).toBe(200);
    }
  });

  describe("driven by traffic", () => {
    const before = new Map<ServiceName, Sample[]>();
    const after = new Map<ServiceName, Sample[]>();
    let gatewayText = "";
    const jobs: JobAnswer[] = [];
    const createdUuids: string[] = [];

    beforeAll(async () => {
      for (const svc of system.services) before.set(svc.name, (await scrape(svc.url)).samples);
      // Deliveries of every signing request to a receiver that always answers 500.
      await world.subscribe(owner, receiver.url("/down"), ["sign.signer.requestActivated"]);
      const files = [
        { name: "contract.pdf", content: await makePdf("Contract") },
        { name: "appendix.pdf", content: await makePdf("Appendix") },
      ];
      for (let i = 0; i < CREATES; i++) {
        const created = await postCreate(system.gateway.url, adminToken, validCaseFile({ title: `Observed ${i}` }), files);
        expect(created.status).toBe(200);
        const ref = created.body.jobs[0]!;
        createdUuids.push(ref.uuid);
        jobs.push(await waitForJob(system.gateway.url, ref.uuid, ref.payloadHash));
        answeredJobs.push(jobs[jobs.length - 1]!);
      }
      expect(jobs.every((j) => j.jobStatus === "completed")).toBe(true);
      // Routes with ids and tokens in their paths: a case file, a signing page, unknown paths.
      const caseFileId = jobs[0]!.result!.data.caseFile.id;
      expect((await fetch(`${system.gateway.url}/send/api/v1/casefiles/${caseFileId}`, { headers: { "X-Auth-Token": adminToken } })).status).toBe(200);
      expect((await fetch(jobs[0]!.result!.data.signingLinks[0]!.signingLink)).status).toBe(200);
      expect((await fetch(`${system.gateway.url}/sign/${"x".repeat(43)}`)).status).toBe(404);
      expect((await fetch(`${system.gateway.url}/no/such/${createdUuids[0]}`)).status).toBe(404);

      await receiver.waitFor("/down", CREATES);
      await eventually(
        async () => {
          const s = (await scrape(service("notifier").url)).samples;
          return delta(before.get("notifier")!, s, "esign_queue_jobs_completed_total", { queue: "notifications", job_name: "signing-request" }) >= CREATES;
        },
        20_000,
        "signing requests sent",
      );
      for (const svc of system.services) {
        const { text, samples } = await scrape(svc.url);
        after.set(svc.name, samples);
        if (svc.name === "api-gateway") gatewayText = text;
      }
    });

    it("the gateway counts requests and fills the latency histogram by route template and status", () => {
      const b = before.get("api-gateway")!;
      const a = after.get("api-gateway")!;
      const create = { method: "POST", route: CREATE_ROUTE, status: "200" };
      expect(delta(b, a, "esign_http_requests_total", create)).toBe(CREATES);
      expect(delta(b, a, "esign_http_request_duration_seconds_count", create)).toBe(CREATES);
      expect(delta(b, a, "esign_http_request_duration_seconds_bucket", { ...create, le: "+Inf" })).toBe(CREATES);
      expect(delta(b, a, "esign_http_request_duration_seconds_sum", create)).toBeGreaterThan(0);
      expect(valueOf(a, "esign_http_requests_total", { method: "GET", route: "/send/api/v1/casefiles/:id", status: "200" })).toBeGreaterThanOrEqual(1);
      expect(valueOf(a, "esign_http_requests_total", { method: "GET", route: "/sign/:token", status: "200" })).toBeGreaterThanOrEqual(1);
      expect(valueOf(a, "esign_http_requests_total", { method: "GET", route: "/sign/:token", status: "404" })).toBeGreaterThanOrEqual(1);
      expect(valueOf(a, "esign_http_requests_total", { method: "GET", route: "unmatched", status: "404" })).toBeGreaterThanOrEqual(1);
      expect(valueOf(a, "esign_http_requests_total", { method: "POST", route: "/send/api/v1/queue/public/status", status: "200" })).toBeGreaterThanOrEqual(
        CREATES,
      );
    });

    it("the gateway times each stage of a create (esign_create_stage_seconds), one observation per stage per create", () => {
      const b = before.get("api-gateway")!;
      const a = after.get("api-gateway")!;
      for (const stage of ["auth", "limits", "multipart", "inspect", "validate", "storage", "database", "enqueue"]) {
        expect([stage, delta(b, a, "esign_create_stage_seconds_count", { stage })]).toEqual([stage, CREATES]);
        expect(delta(b, a, "esign_create_stage_seconds_sum", { stage })).toBeGreaterThan(0);
      }
    });

    it("no raw token or id reaches a route label (or any part of the gateway's metrics)", () => {
      const routes = new Set(select(after.get("api-gateway")!, "esign_http_requests_total").map((s) => s.labels.route!));
      for (const route of routes) {
        // Literal segments and :params only (the create path's date is literal), or "unmatched".
        expect(route).toMatch(/^(unmatched|(\/(:[A-Za-z]+|[a-z][a-z0-9._-]*|20251022))+|\/)$/);
      }
      const secrets = [
        adminToken,
        ...createdUuids,
        ...jobs.flatMap((j) => j.result!.data.signingLinks.map((l) => l.signingLink.split("/sign/")[1]!)),
        "x".repeat(43),
      ];
      for (const secret of secrets) expect(gatewayText).not.toContain(secret);
      // The case file's id as a whole path segment: ids share the run's database with every suite, so
      // a small one like 2 is a prefix of the create route's literal date (/casefiles/20251022).
      expect(gatewayText).not.toMatch(new RegExp(`/casefiles/${jobs[0]!.result!.data.caseFile.id}(?![0-9])`));
    });

    it("the casefile worker reports its create jobs: completed, waits, durations and the queue's depth", () => {
      const b = before.get("casefile-worker")!;
      const a = after.get("casefile-worker")!;
      const create = { queue: "casefile", job_name: "create" };
      expect(delta(b, a, "esign_queue_jobs_completed_total", create)).toBeGreaterThanOrEqual(CREATES);
      expect(delta(b, a, "esign_queue_job_duration_seconds_count", create)).toBeGreaterThanOrEqual(CREATES);
      expect(delta(b, a, "esign_queue_job_duration_seconds_sum", create)).toBeGreaterThan(0);
      expect(delta(b, a, "esign_queue_job_wait_seconds_count", create)).toBeGreaterThanOrEqual(CREATES);
      expect(valueOf(a, "esign_queue_jobs_failed_total", create)).toBe(0);
      const depth = select(a, "esign_queue_depth", { queue: "casefile" });
      expect(depth.map((s) => s.labels.state).sort()).toEqual(["active", "delayed", "failed", "waiting"]);
      expect(depth.every((s) => Number.isFinite(s.value) && s.value >= 0)).toBe(true);
    });

    it("the dispatcher reports its two queues and failed deliveries by outcome and cause", () => {
      const b = before.get("webhook-dispatcher")!;
      const a = after.get("webhook-dispatcher")!;
      expect(delta(b, a, "esign_queue_jobs_completed_total", { queue: "events", job_name: "dispatch" })).toBeGreaterThanOrEqual(CREATES);
      // First attempts are made inside the event's dispatch job; webhooks/deliver carries the retries.
      expect(delta(b, a, "esign_webhook_deliveries_total", { outcome: "failure", cause: "non_2xx" })).toBeGreaterThanOrEqual(CREATES);
      expect(valueOf(a, "esign_webhook_deliveries_total", { outcome: "success" })).toBe(0);
      for (const queue of ["events", "webhooks"]) expect(select(a, "esign_queue_depth", { queue })).toHaveLength(4);
    });

    it("the notifier reports its signing requests", () => {
      const a = after.get("notifier")!;
      const request = { queue: "notifications", job_name: "signing-request" };
      expect(delta(before.get("notifier")!, a, "esign_queue_job_duration_seconds_count", request)).toBeGreaterThanOrEqual(CREATES);
      expect(select(a, "esign_queue_depth", { queue: "notifications" })).toHaveLength(4);
    });

    it("shows deliveries pending a retry, then the subscription the ladder disabled", async () => {
      const dispatcher = service("webhook-dispatcher");
      const pending = await eventually(
        async () => {
          const s = (await scrape(dispatcher.url)).samples;
          return valueOf(s, "esign_webhook_retries_pending") >= 1 && s;
        },
        10_000,
        "a delivery pending a retry",
      );
      expect(valueOf(pending, "esign_webhook_subscriptions_disabled")).toBe(0);
      const disabled = await eventually(
        async () => {
          const s = (await scrape(dispatcher.url)).samples;
          return valueOf(s, "esign_webhook_subscriptions_disabled_total") >= 1 && s;
        },
        40_000,
        "the subscription disabled",
      );
      expect(valueOf(disabled, "esign_webhook_subscriptions_disabled_total")).toBe(1);
      // The gauges are read (cached ~1 s) from PostgreSQL: the disabled subscription shows; its other
      // deliveries were suspended, so none is pending a retry any more.
      const settled = await eventually(
        async () => {
          const s = (await scrape(dispatcher.url)).samples;
          return valueOf(s, "esign_webhook_subscriptions_disabled") === 1 && valueOf(s, "esign_webhook_retries_pending") === 0 && s;
        },
        5_000,
        "gauges updated",
      );
      expect(delta(before.get("webhook-dispatcher")!, settled, "esign_webhook_deliveries_total", { outcome: "failure" })).toBeGreaterThanOrEqual(36);
    });
  });

  it("a METRICS_TOKEN keeps /metrics to scrapers that send it; METRICS_ENABLED=false turns it off", async () => {
    const [guarded, off] = await Promise.all([
      startService("api-gateway", world.env({ METRICS_TOKEN })),
      startService("notifier", world.env({ METRICS_ENABLED: "false" })),
    ]);
    extra.push(guarded, off);
    expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
    await expect(scrape(guarded.url, { authorization: `Bearer ${METRICS_TOKEN}` })).resolves.toBeDefined();
    expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${off.url}/readyz`)).status).toBe(200);
    // Stopped now: a second notifier would take signing requests whose log lines a later test reads.
    await Promise.all([guarded.stop(), off.stop()]);
  });
});

describe("queue dashboard", () => {
  const dashboard = () => `${system.gateway.url}/admin/queues`;
  let memberToken: string;

  let operatorToken: string;

  beforeAll(async () => {
    const member = await createUser(world.db, owner.customerId, "member@example.com", "Member", false);
    memberToken = await getToken(system.gateway.url, await createApiClient(world.db, owner.customerId, member.id, TEST_ENCRYPTION_KEY));
    // The platform's operator: a user of a customer of its own, with the role the admin CLI grants.
    const ops = await world.customer();
    await setOperator(world.db, ops.userId, true);
    operatorToken = await getToken(system.gateway.url, ops);
  });

  it("answers 401 without a token (a login form for a browser), 403 for a user who is not a platform operator, even a customer's admin", async () => {
    const anonymous = await fetch(dashboard());
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: "unauthorized", statusCode: 401 });
    const browser = await fetch(dashboard(), { headers: { accept: "text/html" } });
    expect(browser.status).toBe(401);
    expect(await browser.text()).toContain('<form method="post" action="/admin/queues/login"');
    expect((await fetch(dashboard(), { headers: { "X-Auth-Token": "not-a-token" } })).status).toBe(401);
    const member = await fetch(dashboard(), { headers: { "X-Auth-Token": memberToken } });
    expect(member.status).toBe(403);
    expect(await member.json()).toMatchObject({ error: "forbidden" });
    expect((await fetch(`${dashboard()}/api/queues`, { headers: { Authorization: `Bearer ${memberToken}` } })).status).toBe(403);
    // In development too (this gateway is), the first user of a customer - its admin - is no operator.
    const admin = await fetch(dashboard(), { headers: { "X-Auth-Token": adminToken } });
    expect(admin.status).toBe(403);
    expect(await admin.json()).toMatchObject({ error: "forbidden", message: expect.stringContaining("platform operators") });
    const pause = await fetch(`${dashboard()}/api/queues/casefile/pause`, { method: "PUT", headers: { "X-Auth-Token": adminToken } });
    expect(pause.status).toBe(403);
  });

  it("shows an operator bull-board over the four queues, with X-Auth-Token or Bearer; revoking the role closes it at once", async () => {
    const page = await fetch(dashboard(), { headers: { "X-Auth-Token": operatorToken } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<base href="/admin/queues/"');
    const api = await fetch(`${dashboard()}/api/queues`, { headers: { Authorization: `Bearer ${operatorToken}` } });
    expect(api.status).toBe(200);
    const body = (await api.json()) as { queues: { name: string; description?: string }[] };
    expect(body.queues.map((q) => q.name).sort()).toEqual(["casefile", "events", "notifications", "webhooks"]);
    expect(body.queues.every((q) => q.description === `prefix ${world.queuePrefix}`)).toBe(true);
    const op = await world.db.user.findFirstOrThrow({ where: { isOperator: true } });
    await setOperator(world.db, op.id, false);
    expect((await fetch(dashboard(), { headers: { "X-Auth-Token": operatorToken } })).status).toBe(403);
    await setOperator(world.db, op.id, true);
  });

  it("trades a token for a session cookie at the login form; the cookie opens the dashboard and nothing else", async () => {
    const login = await fetch(`${dashboard()}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: operatorToken }),
      redirect: "manual",
    });
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/admin/queues");
    const setCookie = login.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^esign_admin_session=[^;]+; Path=\/admin\/queues; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    const cookie = setCookie.split(";")[0]!;
    expect((await fetch(dashboard(), { headers: { cookie } })).status).toBe(200);
    // Not an API token, and not usable from another origin for the dashboard's actions.
    const session = cookie.split("=")[1]!;
    expect((await fetch(`${system.gateway.url}/send/api/v1/casefiles/1`, { headers: { "X-Auth-Token": session } })).status).toBe(401);
    const crossSite = await fetch(`${dashboard()}/api/queues/casefile/pause`, { method: "PUT", headers: { cookie, origin: "https://evil.example" } });
    expect(crossSite.status).toBe(403);

    const refused = await fetch(`${dashboard()}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: memberToken }),
      redirect: "manual",
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("set-cookie")).toBeNull();
  });

  it("is off in production unless QUEUE_DASHBOARD=true, then read-only and for operators only", async () => {
    const production = { NODE_ENV: "production", JWT_SECRET, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, METRICS_TOKEN };
    const [off, on] = await Promise.all([
      startService("api-gateway", world.env(production)),
      startService("api-gateway", world.env({ ...production, QUEUE_DASHBOARD: "true" })),
    ]);
    extra.push(off, on);
    const offToken = await getToken(off.url, owner);
    expect((await fetch(`${off.url}/admin/queues`, { headers: { "X-Auth-Token": offToken } })).status).toBe(404);
    expect((await fetch(`${off.url}/admin/queues/login`)).status).toBe(404);
    await expect(scrape(off.url, { authorization: `Bearer ${METRICS_TOKEN}` })).resolves.toBeDefined();

    const ops = await world.db.user.findFirstOrThrow({ where: { isOperator: true }, include: { apiClients: true } });
    const opsClient = await createApiClient(world.db, ops.customerId, ops.id, TEST_ENCRYPTION_KEY);
    const onToken = await getToken(on.url, opsClient);
    expect((await fetch(`${on.url}/admin/queues`, { headers: { "X-Auth-Token": onToken } })).status).toBe(200);
    // A customer's admin is no operator in production either.
    expect((await fetch(`${on.url}/admin/queues`, { headers: { "X-Auth-Token": await getToken(on.url, owner) } })).status).toBe(403);
    const pause = await fetch(`${on.url}/admin/queues/api/queues/casefile/pause`, { method: "PUT", headers: { "X-Auth-Token": onToken } });
    expect(pause.status).toBeGreaterThanOrEqual(400);
    await Promise.all([off.stop(), on.stop()]);
  });
});

const jsonLines = (svc: ServiceProcess) =>
  svc.logs
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("logs", () => {
  it("correlate a create request with its job, and every worker line of the job carries jobId, queue and jobName", async () => {
    const files = [
      { name: "contract.pdf", content: await makePdf("Logged contract") },
      { name: "appendix.pdf", content: await makePdf("Logged appendix") },
    ];
    const created = await postCreate(system.gateway.url, adminToken, validCaseFile({ title: "Logged" }), files, { "X-Request-Id": "obs-request-1" });
    expect(created.status).toBe(200);
    const uuid = created.body.jobs[0]!.uuid;
    const job = await waitForJob(system.gateway.url, uuid, created.body.jobs[0]!.payloadHash);
    answeredJobs.push(job);
    const caseFileId = job.result!.data.caseFile.id;

    const gatewayLine = jsonLines(system.gateway).find((l) => l.message === "case file job created" && l.jobId === uuid);
    expect(gatewayLine).toMatchObject({ requestId: "obs-request-1", service: "api-gateway" });

    const worker = service("casefile-worker");
    const jobLines = await eventually(async () => {
      const lines = jsonLines(worker).filter((l) => l.jobId === uuid);
      return lines.some((l) => l.message === "case file created") && lines;
    }, 5_000);
    for (const line of jobLines) expect(line).toMatchObject({ service: "casefile-worker", queue: "casefile", jobName: "create", creationJobId: uuid });
    expect(jobLines.find((l) => l.message === "case file created")).toMatchObject({ caseFileId, level: "info" });
    // The signing request that followed, in another service, carries its job and the ids of its data.
    const signerId = job.result!.data.signingLinks[0]!.signerId;
    const request = await eventually(
      async () => jsonLines(service("notifier")).find((l) => l.jobName === "signing-request" && l.signerId === signerId),
      10_000,
      "the signing request's log line",
    );
    expect(request).toMatchObject({ service: "notifier", queue: "notifications" });
    expect(typeof request.jobId).toBe("string");
    expect(typeof request.eventId).toBe("string");

    // A first attempt runs in its event's dispatch job, a retry in its own deliver job: both say whose it is.
    const failed = (attempt: number) =>
      jsonLines(service("webhook-dispatcher")).find((l) => l.message === "attempt failed; retry scheduled" && l.attempt === attempt);
    expect(failed(1)).toMatchObject({ queue: "events", jobName: "dispatch", cause: "non_2xx" });
    const retry = await eventually(async () => failed(2), 10_000, "a retry's log line");
    expect(retry).toMatchObject({ queue: "webhooks", jobName: "deliver", cause: "non_2xx" });
    for (const line of [failed(1), retry]) for (const key of ["jobId", "deliveryId", "eventId", "subscriptionId"]) expect(typeof line?.[key]).toBe("string");
  });

  it("no service writes a secret: tokens, client secrets, signing link tokens, webhook secrets", async () => {
    const sub = await world.subscribe(owner, receiver.url("/down-again"), ["sign.signer.requestActivated"]);
    const secrets = [adminToken, owner.clientSecret, owner.apiSecret, sub.secret];
    const linkTokens = answeredJobs.flatMap((j) => j.result!.data.signingLinks.map((l) => l.signingLink.split("/sign/")[1]!));
    expect(linkTokens.length).toBeGreaterThanOrEqual(2 * (CREATES + 1));
    for (const svc of [...system.services, ...extra]) {
      for (const secret of [...secrets, ...linkTokens]) expect(svc.logs).not.toContain(secret);
      expect(svc.logs).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/);
    }
  });
});

// Last in the file: it stops the system's workers.
describe("shutdown", () => {
  it("each worker on SIGTERM closes its parts in order without an error and exits 0", async () => {
    const workers = system.services.filter((s) => s.name !== "api-gateway");
    expect(workers.map((s) => s.name).sort()).toEqual(["casefile-worker", "notifier", "webhook-dispatcher"]);
    expect(await Promise.all(workers.map((s) => s.stop()))).toEqual([0, 0, 0]);
    for (const svc of workers) {
      const lines = jsonLines(svc);
      const closing = lines.slice(lines.findIndex((l) => l.message === "shutting down"));
      expect([svc.name, closing[0]?.message, closing.at(-1)?.message]).toEqual([svc.name, "shutting down", "stopped"]);
      expect(closing.filter((l) => l.level === "error")).toEqual([]);
    }
  });
});
