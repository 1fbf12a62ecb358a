import { Registry } from "prom-client";
// From the modules themselves: the package's index also loads the worker boot (Prisma, BullMQ).
import { cachedRead } from "../src/metrics/cached-read";
import { answerMetrics } from "../src/metrics/metrics-endpoint";
import { queueMetrics } from "../src/metrics/queue-metrics";
import { recoveryMetrics } from "../src/metrics/recovery-metrics";
import { boundHistogram, counter, gauge, histogram, initServiceMetrics } from "../src/metrics/registry";
import { scrapedGauge } from "../src/metrics/scraped-gauge";
import { parsePrometheus, valueOf } from "../../../test/support/prometheus";

const samplesOf = async (registry: Registry) => parsePrometheus(await registry.metrics());

describe("metric declarations", () => {
  it("returns the metric already registered under a name, and refuses the name for another kind", () => {
    const registry = new Registry();
    const a = counter({ name: "t_things_total", help: "things", labelNames: ["kind"] as const }, registry);
    const b = counter({ name: "t_things_total", help: "things", labelNames: ["kind"] as const }, registry);
    expect(b).toBe(a);
    expect(() => gauge({ name: "t_things_total", help: "things" }, registry)).toThrow(/another type/);
    expect(() => histogram({ name: "t_things_total", help: "things", buckets: [1] }, registry)).toThrow(/another type/);
  });

  it("labels every metric with the service, also metrics declared before, and adds Node's default metrics once", async () => {
    const registry = new Registry();
    const early = counter({ name: "t_early_total", help: "declared at import time" }, registry);
    early.inc();
    initServiceMetrics("svc-a", registry);
    initServiceMetrics("svc-a", registry);
    const samples = await samplesOf(registry);
    expect(valueOf(samples, "t_early_total", { service: "svc-a" })).toBe(1);
    expect(samples.filter((s) => s.name === "process_cpu_user_seconds_total")).toHaveLength(1);
    expect(samples.find((s) => s.name === "nodejs_eventloop_lag_seconds")?.labels.service).toBe("svc-a");
    expect(samples.every((s) => s.labels.service === "svc-a")).toBe(true);
  });
});

describe("boundHistogram", () => {
  it("writes exactly what prom-client's histogram writes for the same observations, default labels included", async () => {
    const buckets = [0.001, 0.01, 0.1, 1];
    const reference = new Registry();
    const bound = new Registry();
    for (const r of [reference, bound]) r.setDefaultLabels({ service: "svc-b" });
    const spec = { name: "t_stage_seconds", help: "time per stage", labelNames: ["stage"] as const, buckets };
    const h = histogram(spec, reference);
    const b = boundHistogram(spec, bound);
    const observe = { auth: b.bind({ stage: "auth" }), enqueue: b.bind({ stage: "enqueue" }) };
    // On a bound (le is inclusive), between bounds, past the last, zero.
    for (const [stage, v] of [
      ["auth", 0.001],
      ["auth", 0.005],
      ["auth", 3],
      ["enqueue", 0],
      ["enqueue", 0.1],
      ["auth", 0.0005],
    ] as const) {
      h.observe({ stage }, v);
      observe[stage](v);
    }
    expect(await bound.metrics()).toBe(await reference.metrics());
    // reset() zeroes the series like prom-client's (which forgets them): both write no observation.
    bound.resetMetrics();
    const after = await samplesOf(bound);
    expect(valueOf(after, "t_stage_seconds_count", { stage: "auth", service: "svc-b" })).toBe(0);
    expect(boundHistogram(spec, bound)).toBe(b);
    expect(() => counter({ name: "t_stage_seconds", help: "x" }, bound)).toThrow(/another type|already been registered/);
  });
});

describe("cachedRead", () => {
  it("reads at most once per ttl, shares a read in flight and does not keep a failure", async () => {
    let clock = 0;
    let reads = 0;
    let fail = false;
    const read = cachedRead(
      async () => {
        reads += 1;
        if (fail) throw new Error("down");
        return reads;
      },
      1000,
      () => clock,
    );
    const [a, b] = await Promise.all([read(), read()]);
    expect([a, b, reads]).toEqual([1, 1, 1]);
    clock = 999;
    expect(await read()).toBe(1);
    clock = 1000;
    fail = true;
    await expect(read()).rejects.toThrow("down");
    fail = false;
    expect(await read()).toBe(3);
    expect(reads).toBe(3);
  });
});

describe("scrapedGauge", () => {
  it("reads its value when scraped, and reports NaN (not a stale value, not a failed scrape) when the read fails", async () => {
    const registry = new Registry();
    let value: number | Error = 7;
    const errors: unknown[] = [];
    scrapedGauge(
      { name: "t_backlog", help: "rows owed" },
      async () => {
        if (value instanceof Error) throw value;
        return value;
      },
      { registry, ttlMs: 0, onError: (err) => errors.push(err) },
    );
    expect(valueOf(await samplesOf(registry), "t_backlog")).toBe(7);
    value = 9;
    expect(valueOf(await samplesOf(registry), "t_backlog")).toBe(9);
    value = new Error("postgres down");
    expect(valueOf(await samplesOf(registry), "t_backlog")).toBeNaN();
    expect(errors).toHaveLength(1);
  });
});

describe("queueMetrics", () => {
  it("is one object per registry, so two workers of a process share it", () => {
    const registry = new Registry();
    expect(queueMetrics({ registry })).toBe(queueMetrics({ registry }));
    expect(queueMetrics({ registry })).not.toBe(queueMetrics({ registry: new Registry() }));
  });

  it("counts runs by queue and job name and fills the wait and duration histograms", async () => {
    const registry = new Registry();
    const m = queueMetrics({ registry });
    m.jobRun({ queue: "casefile", jobName: "create", outcome: "completed", waitMs: 30, durationMs: 120 });
    m.jobRun({ queue: "casefile", jobName: "create", outcome: "failed", waitMs: undefined, durationMs: 5 });
    m.jobRun({ queue: "casefile", jobName: "send", outcome: "deferred", waitMs: 2, durationMs: 1 });
    const s = await samplesOf(registry);
    const create = { queue: "casefile", job_name: "create" };
    expect(valueOf(s, "esign_queue_jobs_completed_total", create)).toBe(1);
    expect(valueOf(s, "esign_queue_jobs_failed_total", create)).toBe(1);
    expect(valueOf(s, "esign_queue_job_duration_seconds_count", create)).toBe(2);
    expect(valueOf(s, "esign_queue_job_duration_seconds_sum", create)).toBeCloseTo(0.125, 6);
    expect(valueOf(s, "esign_queue_job_wait_seconds_count", create)).toBe(1);
    expect(valueOf(s, "esign_queue_job_wait_seconds_bucket", { ...create, le: "0.05" })).toBe(1);
    expect(valueOf(s, "esign_queue_job_wait_seconds_bucket", { ...create, le: "0.025" })).toBe(0);
    // A deferred run (DelayedError) is neither completed nor failed; its wait still counts.
    const send = { queue: "casefile", job_name: "send" };
    expect(valueOf(s, "esign_queue_jobs_completed_total", send) + valueOf(s, "esign_queue_jobs_failed_total", send)).toBe(0);
    expect(valueOf(s, "esign_queue_job_duration_seconds_count", send)).toBe(0);
    expect(valueOf(s, "esign_queue_job_wait_seconds_count", send)).toBe(1);
  });

  it("reads queue depth on scrape (cached), drops a queue that fails or is untracked", async () => {
    const registry = new Registry();
    const warnings: unknown[] = [];
    const m = queueMetrics({ registry, depthTtlMs: 60_000, logger: { warn: (...args: unknown[]) => void warnings.push(args) } as never });
    let reads = 0;
    const untrackA = m.trackQueue("a", async () => {
      reads += 1;
      return { waiting: 3, delayed: 1, active: 2, failed: 0 };
    });
    m.trackQueue("b", async () => {
      throw new Error("redis away");
    });
    let s = await samplesOf(registry);
    expect(valueOf(s, "esign_queue_depth", { queue: "a", state: "waiting" })).toBe(3);
    expect(valueOf(s, "esign_queue_depth", { queue: "a", state: "active" })).toBe(2);
    expect(valueOf(s, "esign_queue_depth", { queue: "a", state: "failed" })).toBe(0);
    expect(s.filter((x) => x.name === "esign_queue_depth" && x.labels.queue === "a")).toHaveLength(4);
    expect(s.filter((x) => x.name === "esign_queue_depth" && x.labels.queue === "b")).toHaveLength(0);
    expect(warnings).toHaveLength(1);
    await samplesOf(registry);
    expect(reads).toBe(1);
    untrackA();
    s = await samplesOf(registry);
    expect(s.filter((x) => x.name === "esign_queue_depth")).toHaveLength(0);
  });
});

describe("recoveryMetrics", () => {
  it("keeps every recovery in the histogram, the last one in the gauge, the items caught up and the backlog waiting", async () => {
    const registry = new Registry();
    const metrics = recoveryMetrics(registry);
    expect(recoveryMetrics(registry)).toBe(metrics);
    metrics.backlogSize("create_enqueues", 3);
    metrics.recovered({ dependency: "redis", backlog: "create_enqueues", seconds: 0.4, requeued: 3 });
    metrics.recovered({ dependency: "redis", backlog: "create_enqueues", seconds: 1.5, requeued: 2 });
    metrics.backlogSize("create_enqueues", 0);
    const samples = await samplesOf(registry);
    const labels = { dependency: "redis", backlog: "create_enqueues" };
    expect(valueOf(samples, "esign_recovery_seconds_count", labels)).toBe(2);
    expect(valueOf(samples, "esign_recovery_seconds_sum", labels)).toBeCloseTo(1.9);
    expect(valueOf(samples, "esign_recovery_last_seconds", labels)).toBe(1.5);
    expect(valueOf(samples, "esign_recovery_requeued_total", labels)).toBe(5);
    expect(valueOf(samples, "esign_recovery_backlog", { backlog: "create_enqueues" })).toBe(0);
  });
});

describe("answerMetrics", () => {
  it("serves the text format, 404 when disabled, 401 without the token when one is set", async () => {
    const registry = new Registry();
    counter({ name: "t_hits_total", help: "hits" }, registry).inc(2);
    const ok = await answerMetrics(undefined, { registry });
    expect(ok.status).toBe(200);
    expect(ok.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(valueOf(parsePrometheus(ok.body), "t_hits_total")).toBe(2);

    expect((await answerMetrics(undefined, { registry, enabled: false })).status).toBe(404);
    const token = "a-metrics-token-of-some-length";
    expect((await answerMetrics(undefined, { registry, token })).status).toBe(401);
    expect((await answerMetrics("Bearer wrong", { registry, token })).status).toBe(401);
    expect((await answerMetrics(`Bearer ${token}`, { registry, token })).status).toBe(200);
  });
});
