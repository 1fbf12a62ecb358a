import type { ScenarioResult } from "../scenarios/types";
import { stallSummary, type PressureTotals } from "../support/proc";

export interface BenchReport {
  startedAt: string;
  wallMs: number;
  runId: string;
  options: { only: string[]; quick: boolean; repeats: number; profile: string[]; redis: string };
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    loadAvgAtEnd: number[];
    busyPercentDuringRun: number;
    stalledDuringRun?: PressureTotals;
  };
  scenarios: ScenarioResult[];
  errors: { scenario: string; error: string }[];
}

const cell = (v: unknown) => String(v).replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The human summary of one run: every target with its figure and pass/short, then each scenario's method. */
export function renderMarkdown(report: BenchReport, svgFile: string): string {
  const m = report.machine;
  const lines: string[] = [];
  lines.push(`# Benchmark ${report.startedAt.slice(0, 10)}`);
  lines.push("");
  lines.push(
    `Run \`${report.runId}\` started ${report.startedAt}, wall time ${Math.round(report.wallMs / 1000)} s${report.options.quick ? " (QUICK mode: shortened steps, not a reference run)" : ""}, each step ${report.options.repeats} x (targets judged on the median), ${report.options.redis}. ` +
      `Machine: ${m.cpus} x ${m.cpuModel}, ${m.memoryGb} GB, Node ${m.node}; the machine is shared: all cores were ${m.busyPercentDuringRun}% busy during the run ` +
      `(this run and everyone else's), load average at the end ${m.loadAvgAtEnd.join(" / ")}. Absolute figures drift with that load; ratios against the in-run baselines much less.` +
      (m.stalledDuringRun
        ? ` Stalls over the run: ${stallSummary(m.stalledDuringRun)}; a p99 spike at low CPU with I/O stalls high is the machine's, and hits the baselines too.`
        : ""),
  );
  lines.push("");
  lines.push("## Targets");
  lines.push("");
  lines.push("| Target | Figure | Goal | Result |");
  lines.push("| --- | --- | --- | --- |");
  for (const s of report.scenarios) {
    const unreliable = s.reliability && !s.reliability.reliable ? s.reliability.reasons.join("; ") : undefined;
    for (const c of s.checks) {
      const result = unreliable ? `**UNRELIABLE** (would read ${c.pass ? "pass" : "short"}): ${cell(unreliable)}` : c.pass ? "pass" : "**short**";
      lines.push(
        `| ${cell(c.label)} | **${cell(c.figure)} ${cell(c.unit)}**${c.note ? `<br><sub>${cell(c.note)}</sub>` : ""} | ${cell(c.target)} | ${result} |`,
      );
    }
  }
  for (const e of report.errors) lines.push(`| ${cell(e.scenario)}: did not run | ${cell(e.error.split("\n")[0])} | | **error** |`);
  lines.push("");
  if (report.scenarios.some((s) => s.chart.length > 0)) {
    lines.push(`![Latency percentiles](${svgFile})`);
    lines.push("");
  }
  for (const s of report.scenarios) {
    lines.push(`## ${s.title}`);
    lines.push("");
    for (const mth of s.method) lines.push(`- ${mth}`);
    for (const n of s.notes) lines.push(`- Note: ${n}`);
    lines.push(`- Scenario wall time: ${Math.round(s.wallMs / 1000)} s${s.stalls ? `; machine stalls during it: ${stallSummary(s.stalls)}` : ""}`);
    if (s.reliability)
      lines.push(
        `- Machine during it: other work ${s.reliability.foreignCpuPercent ?? "n/a"}% of all cores, I/O stalled ${s.reliability.ioStallPercent ?? "n/a"}%: ${s.reliability.reliable ? "quiet enough to judge (support/noise.ts)" : `**UNRELIABLE**: ${s.reliability.reasons.join("; ")}`}`,
      );
    lines.push("");
    for (const t of s.tables ?? []) {
      lines.push(`**${t.title}**`);
      lines.push("");
      lines.push(`| ${t.head.map(cell).join(" | ")} |`);
      lines.push(`| ${t.head.map(() => "---").join(" | ")} |`);
      for (const r of t.rows) lines.push(`| ${r.map(cell).join(" | ")} |`);
      lines.push("");
    }
    if (s.chart.length > 0) {
      lines.push("| Series | n | p50 | p90 | p99 | p99.9 | max (ms) |");
      lines.push("| --- | --- | --- | --- | --- | --- | --- |");
      for (const c of s.chart) {
        const l = c.latency;
        lines.push(`| ${cell(`${c.group}: ${c.label}`)} | ${l.count} | ${l.p50} | ${l.p90} | ${l.p99} | ${l.p999} | ${l.max} |`);
      }
      lines.push("");
    }
  }
  lines.push("The raw figures (every step, CPU per process, memory breakdowns) are in the JSON file of the same name.");
  lines.push("");
  return lines.join("\n");
}
