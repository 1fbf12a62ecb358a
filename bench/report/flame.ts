import { readFileSync, writeFileSync } from "node:fs";
import { packageOf } from "../support/cpuprofile";

/*
 * A flame graph (SVG) from a V8 .cpuprofile: width = CPU time, one row per stack depth, colour by
 * package (workspace code, Prisma, pg, BullMQ, got, Node internals...). Idle time is left out.
 *   npx tsx bench/report/flame.ts <file.cpuprofile> [out.svg]
 * The same file also opens in Chrome DevTools (Performance) or https://www.speedscope.app.
 */

interface Node {
  name: string;
  pkg: string;
  self: number;
  total: number;
  children: Map<string, Node>;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const W = 1600;
const ROW = 16;
const MIN_PX = 0.5;

function colour(pkg: string): string {
  if (pkg.startsWith("services/")) return "#e4572e";
  if (pkg.startsWith("packages/")) return "#f3a712";
  if (pkg.includes("prisma") || pkg.startsWith("wasm")) return "#7b2cbf";
  if (pkg === "pg" || pkg.startsWith("pg-")) return "#3a86ff";
  if (pkg === "bullmq" || pkg === "ioredis" || pkg === "msgpackr") return "#2a9d8f";
  if (pkg === "got" || pkg.startsWith("@sindresorhus") || pkg === "http2-wrapper") return "#8ac926";
  if (pkg === "(GC)" || pkg === "(native/V8)" || pkg === "(program)") return "#9e9e9e";
  if (pkg === "node:internal") return "#c9ada7";
  return "#ffca3a";
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function flameGraph(file: string, title = file): string {
  const p = JSON.parse(readFileSync(file, "utf8")) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const root: Node = { name: "all", pkg: "", self: 0, total: 0, children: new Map() };
  p.samples.forEach((id, i) => {
    const us = p.timeDeltas[i] ?? 0;
    const stack: ProfileNode[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (n && n.callFrame.functionName !== "(root)") stack.push(n);
    }
    if (stack[0]?.callFrame.functionName === "(idle)") return;
    root.total += us;
    let node = root;
    for (const f of stack.reverse()) {
      const pkg = f.callFrame.functionName === "(garbage collector)" ? "(GC)" : packageOf(f.callFrame.url);
      const name = `${f.callFrame.functionName || "(anonymous)"} [${pkg}]`;
      let child = node.children.get(name);
      if (!child) node.children.set(name, (child = { name, pkg, self: 0, total: 0, children: new Map() }));
      child.total += us;
      node = child;
    }
    node.self += us;
  });
  const scale = W / Math.max(1, root.total);
  const rects: string[] = [];
  let depth = 0;
  const walk = (n: Node, x: number, d: number) => {
    depth = Math.max(depth, d);
    const w = n.total * scale;
    if (w < MIN_PX) return;
    const y = d * ROW;
    const label = w > 40 ? esc(n.name.slice(0, Math.floor(w / 6.5))) : "";
    rects.push(
      `<g><title>${esc(n.name)}: ${(n.total / 1000).toFixed(1)} ms (${((n.total / root.total) * 100).toFixed(1)}%)</title>` +
        `<rect x="${x.toFixed(1)}" y="__Y${y}__" width="${w.toFixed(1)}" height="${ROW - 1}" fill="${d === 0 ? "#ddd" : colour(n.pkg)}"/>` +
        (label ? `<text x="${(x + 3).toFixed(1)}" y="__T${y}__" font-size="11">${label}</text>` : "") +
        "</g>",
    );
    let cx = x;
    for (const c of [...n.children.values()].sort((a, b) => b.total - a.total)) {
      walk(c, cx, d + 1);
      cx += c.total * scale;
    }
  };
  walk(root, 0, 0);
  const height = (depth + 1) * ROW + 40;
  // Flame graphs grow upwards: flip y so the root sits at the bottom.
  const body = rects
    .join("\n")
    .replace(/__Y(\d+)__/g, (_, y: string) => String(height - 20 - Number(y) - ROW))
    .replace(/__T(\d+)__/g, (_, y: string) => String(height - 20 - Number(y) - 4));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="4" y="14" font-size="13">${esc(title)} - ${(root.total / 1000).toFixed(0)} ms of CPU (idle excluded). Red: services, orange: packages, purple: Prisma, blue: pg, teal: BullMQ/ioredis, green: got, grey: V8/GC.</text>`,
    body,
    "</svg>",
    "",
  ].join("\n");
}

if (require.main === module) {
  const [file, out] = process.argv.slice(2);
  if (!file) {
    process.stderr.write("usage: tsx bench/report/flame.ts <file.cpuprofile> [out.svg]\n");
    process.exit(2);
  }
  const target = out ?? file.replace(/\.cpuprofile$/, ".svg");
  writeFileSync(target, flameGraph(file));
  process.stdout.write(`${target}\n`);
}
