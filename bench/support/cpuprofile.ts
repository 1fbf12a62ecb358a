import { readFileSync } from "node:fs";

/* Reads V8 .cpuprofile files (node --cpu-prof): self time per function and per package, folded stacks. */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  topFunctions: { name: string; selfMs: number; pct: number }[];
  byPackage: { name: string; selfMs: number; pct: number }[];
  /** Folded stacks ("a;b;c ms"), the input of flame-graph renderers. */
  folded: Map<string, number>;
}

/** Which package (or workspace path) a script URL belongs to. */
export function packageOf(url: string): string {
  if (!url) return "(native/V8)";
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm?.[1]) return pnpm[1];
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm?.[1]) return nm[1];
  const ws = /\/(packages|services)\/([^/]+)\//.exec(url);
  if (ws) return `${ws[1]}/${ws[2]}`;
  if (url.startsWith("node:")) return "node:internal";
  return url.replace(/^file:\/\//, "");
}

const frameName = (f: CallFrame) => `${f.functionName || "(anonymous)"} ${packageOf(f.url)}:${f.lineNumber + 1}`;

export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  p.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  });

  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  const folded = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    total += us;
    const name = node.callFrame.functionName;
    if (name === "(idle)" || name === "(program)" || name === "(garbage collector)") {
      if (name === "(idle)") idle += us;
    }
    const f = frameName(node.callFrame);
    fn.set(f, (fn.get(f) ?? 0) + us);
    const k = name === "(garbage collector)" ? "(GC)" : name === "(idle)" ? "(idle)" : name === "(program)" ? "(program)" : packageOf(node.callFrame.url);
    pkg.set(k, (pkg.get(k) ?? 0) + us);
    const stack: string[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (n && n.callFrame.functionName !== "(root)") stack.push(`${n.callFrame.functionName || "(anonymous)"} [${packageOf(n.callFrame.url)}]`);
    }
    const key = stack.reverse().join(";");
    folded.set(key, (folded.get(key) ?? 0) + us / 1000);
  }
  const busy = total - idle;
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .filter(([k]) => k !== "(idle)" && !k.startsWith("(idle)"))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, selfMs: Math.round(us / 100) / 10, pct: Math.round((us / busy) * 1000) / 10 }));
  return { totalMs: Math.round(total / 1000), idleMs: Math.round(idle / 1000), topFunctions: rank(fn), byPackage: rank(pkg), folded };
}

if (require.main === module) {
  for (const file of process.argv.slice(2)) {
    const s = summarizeProfile(file);
    process.stdout.write(`${file}: total ${s.totalMs} ms, idle ${s.idleMs} ms\n-- by package (self) --\n`);
    for (const r of s.byPackage) process.stdout.write(`${String(r.pct).padStart(5)}%  ${String(r.selfMs).padStart(8)} ms  ${r.name}\n`);
    process.stdout.write("-- top functions (self) --\n");
    for (const r of s.topFunctions) process.stdout.write(`${String(r.pct).padStart(5)}%  ${String(r.selfMs).padStart(8)} ms  ${r.name}\n`);
  }
}

/** Inclusive (total) time per function: time in samples whose stack contains it (counted once per sample). */
export function inclusiveTimes(file: string, top = 40): { name: string; totalMs: number }[] {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n) break;
      const name = frameName(n.callFrame);
      if (n.callFrame.functionName === "(idle)") return;
      if (seen.has(name)) continue;
      seen.add(name);
      incl.set(name, (incl.get(name) ?? 0) + (p.timeDeltas[i] ?? 0));
    }
  });
  return [...incl.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, totalMs: Math.round(us / 100) / 10 }));
}
