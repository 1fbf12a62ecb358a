import { createRequire } from "node:module";
import path from "node:path";

const REPO_ROOT = path.resolve(__dirname, "../..");

/**
 * Loads a dependency of a workspace package (pnpm keeps it out of the root's node_modules), e.g.
 * multer through the gateway or pg through @esign/db: the bench adds no dependency of its own.
 */
export function requireFrom<T>(workspacePackage: string, id: string): T {
  return createRequire(path.join(REPO_ROOT, workspacePackage, "package.json"))(id) as T;
}
