import { existsSync, writeFileSync } from "node:fs";
import { createDevelopmentSealP12, createSealer, type AuditTrailContent } from "@esign/seal";
import { buildPdf } from "../support/pdf";
import { median, percentiles, round } from "../support/stats";
import { check, type BenchContext, type ScenarioResult } from "./types";

/*
 * 6. Sealing (issue 13). Finalization's CPU cost per document: original + certificate of completion
 * (Latin, Greek and CJK names, so every font is embedded and subset) + PAdES seal with the run's
 * P12 key, measured in this process with process.cpuUsage() around each seal (user + system: the
 * whole cost, font subsetting and RSA included), for a 100 KB and a 5 MB PDF (incompressible content,
 * like scans). No timestamp authority: its cost is one HTTP round trip, not CPU.
 *
 * Sealing runs in the casefile-worker's finalize job, after the last signature; the create -> completed
 * scenario (creation job) never reaches it. The check below compares the seal's CPU with the machine
 * CPU a create costs at the sustained rate (bench/README.md, round 5: 22.6-25 ms at 80-90/s) as if
 * every created case file were also signed and finalized at that rate.
 */

const SIZES = [
  { label: "100 KB", bytes: 100_000, runs: 12 },
  { label: "5 MB", bytes: 5_000_000, runs: 4 },
] as const;

/** Machine CPU per create at the sustained create -> completed rate (round 5 reference runs). */
const CPU_PER_CREATE_MS = 25;

function content(pageCount: number): Omit<AuditTrailContent, "seal"> {
  const at = new Date();
  const signer = (name: string, role: string) => ({
    name,
    role,
    onBehalfOf: null,
    outcome: "signed" as const,
    method: "text",
    secure: false,
    identityProvider: null,
    identitySubject: null,
    identityMethod: null,
    identityVerifiedAt: null,
    nationalIdMatched: false,
    sentAt: at,
    openedAt: at,
    signedAt: at,
    rejectedAt: null,
    ipAddress: "203.0.113.7",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  });
  return {
    language: "da",
    caseFile: { id: 4242, title: "Lejekontrakt – Åbenrå Strandvej 12" },
    documentId: 1,
    documents: [{ id: 1, title: "Lejekontrakt", pageCount, originalSha256: "a".repeat(64), signable: true }],
    signers: [signer("Søren Ærø Kierkegård", "Udlejer"), signer("Ελένη Παπαδοπούλου", "Μάρτυρας"), signer("王小明", "见证人")],
    generatedAt: at,
  };
}

export async function sealScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const { SEAL_P12_PATH: p12Path, SEAL_P12_PASSWORD: password } = ctx.run.secrets;
  if (!existsSync(p12Path)) writeFileSync(p12Path, await createDevelopmentSealP12(password, { organization: "E-Sign bench" }), { mode: 0o600 });
  const sealer = await createSealer({ production: true, p12Path, p12Password: password, developmentDir: ctx.run.dir });
  // Warm-up: fonts read, JIT warm, first-use costs out of the figures.
  await sealer.seal(buildPdf("Warm-up", 50_000).bytes, content(1));

  const data: Record<string, unknown> = {};
  const checks = [];
  const chart = [];
  for (const size of SIZES) {
    const cpu: number[] = [];
    const wall: number[] = [];
    let sealedBytes = 0;
    for (let i = 0; i < (ctx.quick ? 2 : size.runs); i++) {
      const pdf = buildPdf(`Seal ${size.label} ${i}`, size.bytes).bytes;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const sealed = await sealer.seal(pdf, content(1));
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      sealedBytes = sealed.bytes.length;
    }
    const cpuMs = round(median(cpu), 1);
    ctx.log(`seal ${size.label}: CPU ${cpuMs} ms (median of ${cpu.length}), wall ${round(median(wall), 1)} ms, sealed ${sealedBytes} bytes`);
    data[size.label] = { cpuMs: cpu.map((v) => round(v, 1)), wallMs: wall.map((v) => round(v, 1)), sealedBytes, inputBytes: size.bytes };
    checks.push(check(`seal-cpu-${size.bytes}`, `CPU per sealed ${size.label} document`, cpuMs, "ms", "reported", true));
    chart.push({ group: "seal", label: `seal ${size.label} (wall)`, latency: percentiles(wall) });
  }
  const small = median((data["100 KB"] as { cpuMs: number[] }).cpuMs);
  const share = round((small / CPU_PER_CREATE_MS) * 100, 1);
  checks.push(
    check(
      "seal-vs-create",
      "Informational: seal CPU (100 KB) as a share of the machine CPU per create at the sustained rate",
      share,
      "%",
      "none: create -> completed (the creation job) does not include finalization",
      true,
      `sealing runs in finalize, after signing: the creation path is unchanged; if every case file were also finalized at the create rate, sealing would add ${share}% of a create's machine CPU`,
    ),
  );
  return {
    id: "seal",
    title: "Sealing (finalization): CPU per document",
    method: [
      "In-process: createSealer with the run's P12 (RSA-3072), a Danish audit trail with Latin, Greek and CJK names (all fonts embedded and subset), no TSA",
      "process.cpuUsage() around each seal, medians; PDFs built like the upload scenario's (incompressible content)",
    ],
    checks,
    chart,
    data,
    notes: [],
    wallMs: performance.now() - started,
  };
}
