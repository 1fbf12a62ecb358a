import { readFileSync } from "node:fs";
import type http from "node:http";
import { makeInflationBombPdf } from "../../test/support/hostile-pdf";
import { runOpenModel, summarize, type OpenModelResult, type Outcome } from "../load/open-model";
import { accessToken } from "../support/auth";
import { benchAgent, get, post } from "../support/http";
import { MultipartTemplate } from "../support/multipart";
import { createTemplate } from "../support/payload";
import { NONCE_LENGTH, type NoncePdf } from "../support/pdf";
import { childrenCpuMs, memory } from "../support/proc";
import { startBenchService, type BenchProcess } from "../support/services";
import { epochMs, percentiles, round, type Percentiles } from "../support/stats";
import { createWorld } from "../support/world";
import { check, type BenchContext, type ScenarioResult } from "./types";

/*
 * 10. Upload inspection under abuse (issue 26, item 2). One gateway (production mode, the default
 * inspector settings: 2 processes at nice 10, 1 file per customer at a time, 64 MiB inflated per
 * document, 512 MiB heap, 20 s). Customer B sends ordinary creates (two 100 KB PDFs, fresh bytes each) at a
 * fixed rate, first alone ("quiet"), then while customer A sends creates of three ~1 MB PDFs whose
 * object streams inflate to 1 GiB each (the issue's attack; fresh bytes each, so no verdict comes
 * from the cache). Throughout, /healthz is asked every 25 ms, one request at a time. Measured: B's
 * latency and failures in both phases, A's answers, /healthz latency, the inspectors' CPU and the
 * largest resident size of the gateway's children.
 */

const B_RATE = 4;
const A_RATE = 0.5;
const BOMB_INFLATED = 2 ** 30;
const HEALTHZ_EVERY_MS = 25;
const HEALTHZ_P99_MS = 50;

/** A bomb whose header comment is a nonce: each request uploads other bytes (another content address). */
async function bombPdf(): Promise<NoncePdf> {
  const label = "0".repeat(NONCE_LENGTH);
  const bytes = await makeInflationBombPdf(BOMB_INFLATED, label);
  return { bytes, nonceOffset: bytes.indexOf(label), nonceLength: NONCE_LENGTH };
}

function attackTemplate(bomb: NoncePdf): MultipartTemplate {
  const names = ["one.pdf", "two.pdf", "three.pdf"];
  const data = {
    caseFile: {
      title: "Three documents",
      signers: [{ name: "Mallory", email: "mallory@example.com", enableInsecureSigning: true, insecureSigningMethods: ["text"] }],
      documents: names.map((name, i) => ({ title: name, name, ...(i > 0 ? { signable: false } : {}) })),
    },
  };
  return new MultipartTemplate(
    JSON.stringify(data),
    names.map((name) => ({ name, pdf: bomb })),
  );
}

/** The gateway's children's resident size, summed (the PDF inspectors). */
function childrenRss(pid: number): number {
  let total = 0;
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean);
    for (const c of children) {
      try {
        total += memory(Number(c)).rss;
      } catch {
        // exited meanwhile
      }
    }
  } catch {
    // the gateway is gone
  }
  return total;
}

/** Asks /healthz one request at a time every `everyMs` until stopped; samples the children's RSS too. */
function probe(gateway: BenchProcess, everyMs: number) {
  const agent = benchAgent(1);
  const url = new URL(`${gateway.url}/healthz`);
  const latencies: number[] = [];
  let failures = 0;
  let peakChildrenRss = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await get(agent, url, {}, 10_000);
        if (res.status !== 200) failures += 1;
      } catch {
        failures += 1;
      }
      const ms = performance.now() - t0;
      latencies.push(ms);
      peakChildrenRss = Math.max(peakChildrenRss, childrenRss(gateway.pid));
      await new Promise((r) => setTimeout(r, Math.max(0, everyMs - ms)));
    }
  })();
  return {
    async stop(): Promise<{ latency: Percentiles; failures: number; peakChildrenRssMb: number }> {
      running = false;
      await loop;
      agent.destroy();
      return { latency: percentiles(latencies), failures, peakChildrenRssMb: round(peakChildrenRss / 2 ** 20, 1) };
    },
  };
}

/** Sends one create per call; counts the answers by status and error codes, and records every answer's latency (refusals too). */
function sender(agent: http.Agent, url: URL, token: string, tpl: MultipartTemplate, answers: Record<string, number>, latencies: number[] = []) {
  const headers = { "content-type": tpl.contentType, "content-length": tpl.contentLength, "x-auth-token": token };
  return async (_i: number, intendedAt: number): Promise<Outcome> => {
    const res = await post(agent, url, headers, tpl.chunks(), 120_000);
    latencies.push(epochMs() - intendedAt);
    const codes = res.status === 400 ? [...new Set((JSON.parse(res.body) as { errors?: { code: string }[] }).errors?.map((e) => e.code) ?? [])].join("+") : "";
    const key = `${res.status}${codes ? ` ${codes}` : ""}`;
    answers[key] = (answers[key] ?? 0) + 1;
    return res.status === 200 ? { ok: true } : { ok: false, detail: key };
  };
}

export async function inspectAbuseScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const durationMs = ctx.quick ? 8_000 : 25_000;
  const world = await createWorld(ctx.run, "inspect");
  ctx.log(`inspect: building a ${BOMB_INFLATED / 2 ** 20} MiB bomb`);
  const bomb = await bombPdf();
  const gateway = await startBenchService("api-gateway", { env: world.env() });
  const url = new URL(`${gateway.url}/send/api/v1/casefiles/20251022/create`);
  const [tokenA, tokenB] = await Promise.all([accessToken(gateway.url, await world.customer()), accessToken(gateway.url, await world.customer())]);
  const agent = benchAgent();
  const bAnswersQuiet: Record<string, number> = {};
  const bAnswersAttack: Record<string, number> = {};
  const aAnswers: Record<string, number> = {};
  const aLatencies: number[] = [];
  const ordinary = createTemplate();
  const attack = attackTemplate(bomb);

  // Warm-up: the inspector processes start, the code paths compile.
  const warm = sender(agent, url, tokenB, ordinary, {});
  for (let i = 0; i < 10; i++) await warm(i, epochMs());

  ctx.log(`inspect: quiet ${durationMs / 1000} s (B ${B_RATE}/s), then attack (B ${B_RATE}/s + A ${A_RATE}/s, 3 x ${bomb.bytes.length} B bombs)`);
  const quietProbe = probe(gateway, HEALTHZ_EVERY_MS);
  const quiet = await runOpenModel({ rate: B_RATE, durationMs, drainTimeoutMs: 60_000, fire: sender(agent, url, tokenB, ordinary, bAnswersQuiet) });
  const quietHealth = await quietProbe.stop();

  await new Promise((r) => setTimeout(r, 1000));
  const i0 = childrenCpuMs(gateway.pid);
  const t0 = performance.now();
  const attackProbe = probe(gateway, HEALTHZ_EVERY_MS);
  const [underAttack, attacker] = await Promise.all([
    runOpenModel({ rate: B_RATE, durationMs, drainTimeoutMs: 60_000, fire: sender(agent, url, tokenB, ordinary, bAnswersAttack) }),
    runOpenModel({ rate: A_RATE, durationMs, drainTimeoutMs: 60_000, fire: sender(agent, url, tokenA, attack, aAnswers, aLatencies) }),
  ]);
  const attackHealth = await attackProbe.stop();
  const inspectorCpuPct = round(((childrenCpuMs(gateway.pid) - i0) / (performance.now() - t0)) * 100, 1);
  agent.destroy();
  await gateway.stop();
  await world.db.$disconnect();

  const refusedAsCostly = aAnswers["400 pdf_too_costly"] ?? 0;
  const aLatency = percentiles(aLatencies);
  const p99Ratio = underAttack.latency.p99 / quiet.latency.p99;
  const fig = (r: OpenModelResult) => `p50 ${round(r.latency.p50, 1)} ms, p99 ${round(r.latency.p99, 1)} ms, ${r.ok}/${r.intended} ok`;
  return {
    id: "inspect",
    title: "Upload inspection under abuse: inflation bombs from one customer beside another's ordinary creates",
    method: [
      `Gateway in production mode, default inspector settings (PDF_INSPECTORS 2, PDF_INSPECT_PER_CUSTOMER 1, PDF_INSPECT_MAX_INFLATED_BYTES 64 MiB, PDF_INSPECT_MAX_HEAP_MB 512, PDF_INSPECT_TIMEOUT_MS 20000, PDF_INSPECT_NICE 10).`,
      `Customer B: ordinary creates (two 100 KB PDFs, fresh bytes each) at ${B_RATE}/s for ${durationMs / 1000} s alone, then ${durationMs / 1000} s while customer A sends ${A_RATE} creates/s of three ${round(bomb.bytes.length / 2 ** 20, 2)} MB PDFs whose object streams inflate to ${BOMB_INFLATED / 2 ** 30} GiB each (fresh bytes each: no cached verdict).`,
      `/healthz asked every ${HEALTHZ_EVERY_MS} ms, one at a time, in both phases; latencies are from the intended send time (open model).`,
    ],
    checks: [
      check(
        "inspect-healthz",
        "/healthz p99 during the attack",
        attackHealth.latency.p99,
        "ms",
        `< ${HEALTHZ_P99_MS} ms`,
        attackHealth.latency.p99 < HEALTHZ_P99_MS && attackHealth.failures === 0,
        `quiet: ${round(quietHealth.latency.p99, 1)} ms; ${attackHealth.latency.count} probes`,
      ),
      check(
        "inspect-b-failures",
        "B's creates failed during the attack",
        underAttack.failed + underAttack.dropped + underAttack.timedOut,
        "requests",
        "0",
        underAttack.failed + underAttack.dropped + underAttack.timedOut === 0,
        `attack: ${fig(underAttack)}; quiet: ${fig(quiet)}`,
      ),
      check(
        "inspect-b-p99",
        "B's create p99, attack vs quiet",
        p99Ratio,
        "x",
        "context",
        true,
        `${round(underAttack.latency.p99, 1)} vs ${round(quiet.latency.p99, 1)} ms`,
      ),
      check(
        "inspect-a-refused",
        "A's creates refused as pdf_too_costly",
        refusedAsCostly,
        "creates",
        `all ${attacker.intended}`,
        refusedAsCostly === attacker.intended,
        `answers: ${JSON.stringify(aAnswers)}; A's own answers p50 ${round(aLatency.p50, 0)} ms, p99 ${round(aLatency.p99, 0)} ms`,
      ),
    ],
    chart: [
      { group: "B create", label: "quiet", latency: quiet.latency },
      { group: "B create", label: "attack", latency: underAttack.latency },
      { group: "/healthz", label: "quiet", latency: quietHealth.latency },
      { group: "/healthz", label: "attack", latency: attackHealth.latency },
      { group: "A create (refused)", label: "attack", latency: aLatency },
    ],
    data: {
      quiet: summarize(quiet),
      underAttack: summarize(underAttack),
      attacker: summarize(attacker),
      attackerAnswerLatency: aLatency,
      answers: { bQuiet: bAnswersQuiet, bAttack: bAnswersAttack, a: aAnswers },
      healthz: { quiet: quietHealth, attack: attackHealth },
      inspectorCpuPctDuringAttack: inspectorCpuPct,
      bombBytes: bomb.bytes.length,
    },
    notes: [
      `inspector processes' CPU during the attack: ${inspectorCpuPct}% of one core; their largest summed RSS: quiet ${quietHealth.peakChildrenRssMb} MB, attack ${attackHealth.peakChildrenRssMb} MB`,
      `B's answers: quiet ${JSON.stringify(bAnswersQuiet)}, attack ${JSON.stringify(bAnswersAttack)}`,
    ],
    wallMs: performance.now() - started,
  };
}
