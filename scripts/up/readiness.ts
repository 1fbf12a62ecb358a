import { ok } from "./output";
import type { ServiceSpec } from "./services";
import { waitUntil, type ProbeResult } from "./wait";

const WAIT_MS = 90_000;

async function readyz(url: string): Promise<ProbeResult> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    if (res.ok) return { ready: true };
    return { ready: false, reason: `${res.status} ${await res.text()}` };
  } catch (err) {
    // fetch hides the useful part (ECONNREFUSED) in `cause`.
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
    return { ready: false, reason: cause ?? (err instanceof Error ? err.message : String(err)) };
  }
}

/** Names of the services whose /readyz did not answer 200 in time (empty when all are ready). */
export async function waitForServices(specs: ServiceSpec[], signal: AbortSignal): Promise<string[]> {
  const results = await Promise.all(
    specs.map(async (spec) => {
      const result = await waitUntil(`${spec.name} ${spec.readyUrl}`, () => readyz(spec.readyUrl), { timeoutMs: WAIT_MS, intervalMs: 1000, signal });
      if (result.ready) ok(`${spec.name} is ready`);
      return result.ready ? undefined : `${spec.name} (${result.reason})`;
    }),
  );
  return results.filter((r): r is string => r !== undefined);
}
