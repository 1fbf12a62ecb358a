import { accessToken } from "../support/auth";
import { benchAgent, post } from "../support/http";
import { MultipartTemplate } from "../support/multipart";
import { createTemplate } from "../support/payload";
import { buildPdf } from "../support/pdf";
import { memory, resetPeakRss, sampleRss } from "../support/proc";
import { median, round } from "../support/stats";
import { createWorld } from "../support/world";
import { startBaselineTarget, startGatewayTarget } from "./create-targets";
import { check, type BenchContext, type ScenarioResult } from "./types";
import type { BenchProcess } from "../support/services";

/*
 * 5. Large upload. A fresh gateway (production mode), warmed up with ordinary creates, then one
 * create carrying a single 50 MB PDF. Peak RSS = max of VmHWM (reset through /proc/<pid>/clear_refs
 * just before the upload) and a 5 ms RSS sampler; idle RSS = median of RSS samples over one second
 * before it. A 5 MB upload is measured the same way to show the peak does not follow the file size.
 * Reference: the baseline server (multer streaming to disk) with the same 50 MB upload.
 */

const BIG = 50_000_000; // 50 MB (UPLOAD_MAX_FILE_BYTES is 50 MiB)
const SMALL = 5_000_000;

function singleFileTemplate(bytes: number): MultipartTemplate {
  const data = {
    caseFile: {
      title: "Large scan",
      signers: [{ name: "Alice Andersen", email: "alice@example.com", role: "Signer", enableInsecureSigning: true, insecureSigningMethods: ["text"] }],
      documents: [{ title: "Scan", name: "scan.pdf", roles: ["Signer"] }],
    },
  };
  return new MultipartTemplate(JSON.stringify(data), [{ name: "scan.pdf", pdf: buildPdf("Scan", bytes) }]);
}

async function idleRss(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    samples.push(memory(pid).rss);
    await new Promise((r) => setTimeout(r, 50));
  }
  return median(samples);
}

async function upload(proc: BenchProcess, url: URL, headers: Record<string, string>, tpl: MultipartTemplate) {
  const idle = await idleRss(proc.pid);
  const reset = resetPeakRss(proc.pid);
  const sampler = sampleRss(proc.pid, 5);
  const t0 = performance.now();
  const agent = benchAgent(4);
  const res = await post(agent, url, { ...headers, "content-type": tpl.contentType, "content-length": tpl.contentLength }, tpl.chunks(), 120_000);
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 200));
  const { peak, samples } = sampler.stop();
  agent.destroy();
  const hwm = memory(proc.pid).hwm;
  const peakRss = Math.max(peak, reset ? hwm : 0);
  return {
    status: res.status,
    uploadMs: round(ms, 1),
    idleRssMb: round(idle / 2 ** 20, 1),
    peakRssMb: round(peakRss / 2 ** 20, 1),
    ratio: round(peakRss / idle, 3),
    growthMb: round((peakRss - idle) / 2 ** 20, 1),
    hwmResetWorked: reset,
    samples,
  };
}

export async function largeUploadScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const world = await createWorld(ctx.run, "upload");
  const tpl = createTemplate();
  const system = await startGatewayTarget(ctx, world, tpl);
  const baseline = await startBaselineTarget(ctx, world, tpl);
  const big = singleFileTemplate(BIG);
  const small = singleFileTemplate(SMALL);
  try {
    for (let i = 0; i < 10; i++) await Promise.all([system.fire(), baseline.fire()]); // warm-up: same code paths
    await new Promise((r) => setTimeout(r, 1000));
    const sysUrl = new URL(`${system.proc.url}/send/api/v1/casefiles/20251022/create`);
    const sysHeaders = { "x-auth-token": await accessToken(system.proc.url, await world.customer()) };
    const baseUrl = new URL(`${baseline.proc.url}/create`);
    const small1 = await upload(system.proc, sysUrl, sysHeaders, small);
    const big1 = await upload(system.proc, sysUrl, sysHeaders, big);
    const baseBig = await upload(baseline.proc, baseUrl, {}, big);
    ctx.log(
      `  upload: gateway idle ${big1.idleRssMb} MB, peak ${big1.peakRssMb} MB with 50 MB (x${big1.ratio}; 5 MB: x${small1.ratio}); baseline x${baseBig.ratio}; status ${big1.status}`,
    );
    const ok = big1.status === 200;
    return {
      id: "upload",
      title: "5. Large upload (one 50 MB PDF)",
      method: [
        "Fresh gateway in production mode, warmed up with 10 ordinary creates; then a 5 MB and a 50 MB single-PDF create.",
        "Peak RSS: VmHWM reset via /proc/<pid>/clear_refs before each upload, and a 5 ms VmRSS sampler; idle RSS: median over 1 s before.",
        "Reference: the baseline server (multer streaming to disk) with the same 50 MB upload.",
      ],
      checks: [
        check(
          "upload.rss",
          "Gateway peak RSS / idle RSS, 50 MB upload",
          ok ? big1.ratio : NaN,
          "x",
          "< 1.5 x idle",
          ok && big1.ratio < 1.5,
          `idle ${big1.idleRssMb} MB, peak ${big1.peakRssMb} MB (+${big1.growthMb} MB for 50 MB, +${small1.growthMb} MB for 5 MB), answered ${big1.status} in ${big1.uploadMs} ms; baseline x${baseBig.ratio}`,
        ),
      ],
      chart: [],
      data: { system: { small: small1, big: big1 }, baseline: { big: baseBig }, bytes: { big: BIG, small: SMALL } },
      notes: [],
      wallMs: Math.round(performance.now() - started),
    };
  } finally {
    await Promise.all([system.proc.stop(), baseline.proc.stop()]);
  }
}
