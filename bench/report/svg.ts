import type { ChartSeries, ScenarioResult } from "../scenarios/types";

/*
 * One SVG of every latency distribution of the run: a row per series, on a log scale (1 ms ..
 * 10 s) because the figures span four decades. Bar = up to p99; ticks at p50 and p90; a diamond at
 * p99.9; a dashed line for the scenario's target. Infinite values (undelivered, failed) are drawn
 * at the right edge and labelled.
 */

const W = 980;
const LEFT = 300;
const RIGHT = 90;
const ROW = 26;
const GROUP_GAP = 30;
const MIN_MS = 1;
const MAX_MS = 10_000;

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function x(ms: number): number {
  const v = Number.isFinite(ms) ? Math.min(Math.max(ms, MIN_MS), MAX_MS) : MAX_MS;
  return LEFT + ((Math.log10(v) - Math.log10(MIN_MS)) / (Math.log10(MAX_MS) - Math.log10(MIN_MS))) * (W - LEFT - RIGHT);
}

const TARGETS: Record<string, number> = { "1.": 100, "2.": 250, "3.": 100, "4.": 100 };

const fmt = (v: number) => (Number.isFinite(v) ? (v >= 100 ? String(Math.round(v)) : String(Math.round(v * 10) / 10)) : "inf");

export function renderSvg(results: readonly ScenarioResult[]): string {
  const series: ChartSeries[] = results.flatMap((r) => r.chart);
  const groups = [...new Set(series.map((s) => s.group))];
  const height = 70 + groups.length * GROUP_GAP + series.length * ROW + 40;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
  );
  out.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  out.push(`<text x="16" y="24" font-size="15" font-weight="bold">Latency percentiles (ms, log scale): bar to p99, ticks p50 / p90, diamond p99.9</text>`);
  const top = 44;
  const bottom = height - 36;
  for (const t of [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]) {
    const major = [1, 10, 100, 1000, 10000].includes(t);
    out.push(`<line x1="${x(t)}" y1="${top}" x2="${x(t)}" y2="${bottom}" stroke="${major ? "#bbb" : "#e4e4e4"}"/>`);
    out.push(`<text x="${x(t)}" y="${bottom + 16}" text-anchor="middle" fill="#555">${t >= 1000 ? `${t / 1000}s` : t}</text>`);
  }
  let y = top + 10;
  for (const g of groups) {
    y += 8;
    out.push(`<text x="16" y="${y + 8}" font-weight="bold">${esc(g)}</text>`);
    const target = Object.entries(TARGETS).find(([k]) => g.startsWith(k))?.[1];
    const rows = series.filter((s) => s.group === g);
    const groupTop = y + 14;
    y += 14;
    for (const s of rows) {
      const l = s.latency;
      const cy = y + ROW / 2;
      out.push(`<text x="${LEFT - 8}" y="${cy + 4}" text-anchor="end">${esc(s.label)}</text>`);
      out.push(
        `<rect x="${x(MIN_MS)}" y="${cy - 7}" width="${Math.max(1, x(l.p99) - x(MIN_MS))}" height="14" fill="${Number.isFinite(l.p99) ? "#7aa6d6" : "#d98c8c"}"/>`,
      );
      for (const [v, color] of [
        [l.p50, "#1d3f66"],
        [l.p90, "#2f5f94"],
      ] as const) {
        out.push(`<line x1="${x(v)}" y1="${cy - 9}" x2="${x(v)}" y2="${cy + 9}" stroke="${color}" stroke-width="2"/>`);
      }
      const dx = x(l.p999);
      out.push(`<path d="M${dx} ${cy - 6} L${dx + 5} ${cy} L${dx} ${cy + 6} L${dx - 5} ${cy} Z" fill="#c0504d"/>`);
      out.push(`<text x="${W - RIGHT + 6}" y="${cy + 4}" fill="#333">${fmt(l.p50)} / ${fmt(l.p99)}</text>`);
      y += ROW;
    }
    if (target) {
      out.push(`<line x1="${x(target)}" y1="${groupTop}" x2="${x(target)}" y2="${y}" stroke="#c0504d" stroke-dasharray="4 3" stroke-width="1.5"/>`);
      out.push(`<text x="${x(target) + 4}" y="${groupTop + 10}" fill="#c0504d" font-size="11">target p99 ${target} ms</text>`);
    }
    y += GROUP_GAP - 14;
  }
  out.push(`<text x="${W - RIGHT + 6}" y="${top + 4}" fill="#555" font-size="11">p50 / p99</text>`);
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
