import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEPLOY_DATA } from "../../../scripts/deploy/podman";

const FIGURES = path.join(DEPLOY_DATA, "figures.json");

/** Adds what a suite measured to .data/deploy/figures.json (scripts/test-deploy.ts prints and keeps it). */
export function recordFigures(suite: string, figures: Record<string, unknown>): void {
  const all = existsSync(FIGURES) ? (JSON.parse(readFileSync(FIGURES, "utf8")) as { suites?: Record<string, unknown> }) : {};
  all.suites = { ...(all.suites ?? {}), [suite]: { ...((all.suites?.[suite] as Record<string, unknown>) ?? {}), ...figures } };
  writeFileSync(FIGURES, `${JSON.stringify(all, null, 2)}\n`);
  process.stdout.write(`[figures] ${suite}: ${JSON.stringify(figures)}\n`);
}
