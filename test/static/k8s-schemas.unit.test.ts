import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/*
 * deploy/k8s against Kubernetes' and KEDA's own schemas (scripts/deploy/validate-manifests.ts, offline:
 * kubernetes-models and @kubernetes-models/keda from npm), every object: what `podman kube play` runs
 * in pnpm test:deploy and what it cannot (Services, PodDisruptionBudgets, the HorizontalPodAutoscaler,
 * KEDA's ScaledObjects). The validator is an ES module set, hence a process of its own (tsx).
 */

const ROOT = path.resolve(__dirname, "../..");
const run = promisify(execFile);
const validate = (...targets: string[]) =>
  run(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/deploy/validate-manifests.ts", ...targets], { cwd: ROOT }).then(
    (r) => ({ code: 0, out: r.stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, out: err.stdout }),
  );

describe("deploy/k8s against the Kubernetes schemas", () => {
  it("validates every object, the autoscalers and disruption budgets included", async () => {
    const { code, out } = await validate();
    expect(out.split("\n").filter((l) => l.startsWith("INVALID"))).toEqual([]);
    expect(code).toBe(0);
    for (const kind of ["Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler", "ScaledObject", "Job", "ConfigMap", "Secret"]) {
      expect(out).toMatch(new RegExp(`^valid +deploy/k8s/\\S+: ${kind} `, "m"));
    }
  });

  it("refuses what the API server would refuse: a wrong type, an unknown kind", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "esign-k8s-schema-"));
    try {
      const hpa = readFileSync(path.join(ROOT, "deploy/k8s/api-gateway.yaml"), "utf8").replace("minReplicas: 2", 'minReplicas: "two"');
      writeFileSync(path.join(dir, "broken.yaml"), hpa);
      writeFileSync(path.join(dir, "unknown.yaml"), "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n");
      const { code, out } = await validate(dir);
      expect(code).toBe(1);
      expect(out).toMatch(/^INVALID .*broken\.yaml: HorizontalPodAutoscaler api-gateway: .*minReplicas/m);
      expect(out).toMatch(/^INVALID .*unknown\.yaml: Widget w: no schema for example\.com\/v1\/Widget/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
