import { inspectPdf } from "@esign/pdf-inspect";
import { buildPdf } from "../support/pdf";

/*
 * What a pause between files does to the CPU of one PDF inspection, in this process (no child, no
 * message): the bench's 100 KB PDF opened back to back, then one every 16 and 33 ms (60 and 30 files
 * a second, the inspectors' pace at 30-15 creates a second). On the bench machine (round 22, three
 * runs) a file cost 39-49 us back to back and 207-273 us after a pause: the caches and branch
 * predictors other processes left behind, not the parse. It is why the inspector processes spend
 * 0.8-2.7 ms of CPU per create at moderate rates (bench/README.md, round 22).
 *
 * npx tsx bench/probes/inspect-idle-gap.ts
 */

async function main(): Promise<void> {
  const pdf = buildPdf("Contract", 100_000).bytes;
  const limits = { maxInflatedBytes: 64 * 2 ** 20 };
  for (let i = 0; i < 2000; i++) await inspectPdf(pdf, limits); // JIT warm-up
  for (const gapMs of [0, 16, 33]) {
    const files = 300;
    let cpuUs = 0;
    for (let i = 0; i < files; i++) {
      if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      const t0 = process.cpuUsage();
      await inspectPdf(pdf, limits);
      const d = process.cpuUsage(t0);
      cpuUs += d.user + d.system;
    }
    process.stdout.write(`pause ${gapMs} ms between files: ${Math.round(cpuUs / files)} us of CPU per file (${files} files)\n`);
  }
}

void main();
