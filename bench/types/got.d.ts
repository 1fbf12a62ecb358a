// The bench's got loop (baselines/got-loop.ts): got 14 publishes its types only through package.json "exports", which the workspace's
// `moduleResolution: "node"` does not read. Node 20 loads the package itself fine (require of ESM),
// so only the compiler needs this pointer at got's own declarations. Drop it when the workspace
// moves to `moduleResolution: "node16"`/"bundler".
declare module "got" {
  import type { Got } from "got/dist/source/index.js";
  const got: Got;
  export default got;
}
