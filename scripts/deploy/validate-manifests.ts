// Validates Kubernetes manifests against the Kubernetes API's own schemas, offline: kubernetes-models
// (npm) carries the OpenAPI schemas of Kubernetes 1.27 compiled into validators, and
// @kubernetes-models/keda those of KEDA's CRDs (ScaledObject). What `podman kube play` cannot run
// (Services, PodDisruptionBudgets, the HorizontalPodAutoscaler, KEDA's ScaledObjects) is checked
// here; test/deploy runs the rest for real.
//
//   pnpm exec tsx scripts/deploy/validate-manifests.ts [folder or files...]   (default deploy/k8s)
// Prints one line per object and exits 1 if any is invalid or of a kind it has no schema for.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: unknown) => Validatable;

/** The schema of each apiVersion and kind, loaded on use (the packages are ES modules). */
const MODELS: Record<string, () => Promise<ModelClass>> = {
  "v1/ConfigMap": async () => (await import("kubernetes-models/v1")).ConfigMap as unknown as ModelClass,
  "v1/Secret": async () => (await import("kubernetes-models/v1")).Secret as unknown as ModelClass,
  "v1/Service": async () => (await import("kubernetes-models/v1")).Service as unknown as ModelClass,
  "v1/PersistentVolumeClaim": async () => (await import("kubernetes-models/v1")).PersistentVolumeClaim as unknown as ModelClass,
  "v1/Pod": async () => (await import("kubernetes-models/v1")).Pod as unknown as ModelClass,
  "apps/v1/Deployment": async () => (await import("kubernetes-models/apps/v1")).Deployment as unknown as ModelClass,
  "batch/v1/Job": async () => (await import("kubernetes-models/batch/v1")).Job as unknown as ModelClass,
  "policy/v1/PodDisruptionBudget": async () => (await import("kubernetes-models/policy/v1")).PodDisruptionBudget as unknown as ModelClass,
  "autoscaling/v2/HorizontalPodAutoscaler": async () => (await import("kubernetes-models/autoscaling/v2")).HorizontalPodAutoscaler as unknown as ModelClass,
  "keda.sh/v1alpha1/ScaledObject": async () => (await import("@kubernetes-models/keda/keda.sh/v1alpha1")).ScaledObject as unknown as ModelClass,
};

export interface ManifestCheck {
  file: string;
  object: string;
  problem?: string;
}

function yamlFiles(target: string): string[] {
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => path.join(target, f));
}

export async function validateManifests(targets: string[]): Promise<ManifestCheck[]> {
  const results: ManifestCheck[] = [];
  for (const file of targets.flatMap(yamlFiles)) {
    for (const doc of parseAllDocuments(readFileSync(file, "utf8"))) {
      const obj = doc.toJS() as { apiVersion?: string; kind?: string; metadata?: { name?: string } } | null;
      if (!obj) continue;
      const key = `${obj.apiVersion}/${obj.kind}`;
      const object = `${obj.kind} ${obj.metadata?.name ?? "(no name)"}`;
      // kustomize's own file is not an API object: kustomize build checks it.
      if (obj.kind === "Kustomization") continue;
      const load = MODELS[key];
      if (!load) {
        results.push({ file, object, problem: `no schema for ${key}` });
        continue;
      }
      const Model = await load();
      try {
        new Model(obj).validate();
        results.push({ file, object });
      } catch (err) {
        results.push({ file, object, problem: (err as Error).message });
      }
    }
  }
  return results;
}

if (require.main === module) {
  const targets = process.argv.slice(2);
  validateManifests(targets.length > 0 ? targets : [path.resolve(__dirname, "../../deploy/k8s")]).then(
    (results) => {
      for (const r of results)
        process.stdout.write(`${r.problem ? "INVALID" : "valid  "} ${path.relative(process.cwd(), r.file)}: ${r.object}${r.problem ? `: ${r.problem}` : ""}\n`);
      const bad = results.filter((r) => r.problem).length;
      process.stdout.write(`${results.length - bad} valid, ${bad} invalid\n`);
      process.exit(bad > 0 ? 1 : 0);
    },
    (err: unknown) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
