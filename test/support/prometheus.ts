/*
 * A small reader of the Prometheus text exposition format (0.0.4), enough for tests: samples with
 * their labels and values; comments (HELP, TYPE) are skipped.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseValue(text: string): number {
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  return Number(text);
}

// Label values escape backslash, double quote and newline.
function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const re = /\s*([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_all, c: string) => (c === "n" ? "\n" : c));
    if (re.lastIndex >= text.length) break;
  }
  return labels;
}

export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    samples.push({ name: m[1]!, labels: m[2] ? parseLabels(m[2]) : {}, value: parseValue(m[3]!) });
  }
  return samples;
}

/** Samples of `name` whose labels include `labels`. */
export function select(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The sum of the matching samples' values (0 when none match: a counter not yet incremented). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return select(samples, name, labels).reduce((sum, s) => sum + s.value, 0);
}

/** GET <baseUrl>/metrics, parsed; throws unless it answers 200 in the text format. */
export async function scrape(baseUrl: string, headers: Record<string, string> = {}): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(`${baseUrl}/metrics`, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${baseUrl}/metrics answered ${res.status}: ${text}`);
  if (!(res.headers.get("content-type") ?? "").startsWith("text/plain")) throw new Error(`unexpected content type ${res.headers.get("content-type")}`);
  return { text, samples: parsePrometheus(text) };
}
