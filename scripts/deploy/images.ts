// The platform's image, built with podman from docker/Dockerfile on the local base image: its
// `runtime` target, which docker/compose.yaml and deploy/k8s run for every service and the migration
// (each with its own command), tagged localhost/esign/platform:<tag>. (The Dockerfile's per-service
// targets add only ENV, EXPOSE, HEALTHCHECK and CMD on top of it; test/static checks those commands
// against compose and the manifests.)
import { existsSync } from "node:fs";
import { imageSize, podman } from "./podman";

export const TARGETS = ["runtime"] as const;
export type Target = (typeof TARGETS)[number];

export const imageRef = (tag: string) => `localhost/esign/platform:${tag}`;

/**
 * The CA bundle that lets the build stage's npm and pnpm reach the registry through this machine's
 * TLS-inspecting egress (NODE_EXTRA_CA_CERTS, as the host's Node uses it); a build secret, so it
 * never lands in a layer. Elsewhere none is needed.
 */
function buildCaSecret(): string[] {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  return ca && existsSync(ca) ? ["--secret", `id=build-ca,src=${ca}`] : [];
}

export interface BuiltImage {
  target: Target;
  ref: string;
  bytes: number;
}

export async function buildImages(baseImage: string, tag: string, log: (line: string) => void = () => {}): Promise<BuiltImage[]> {
  const built: BuiltImage[] = [];
  for (const target of TARGETS) {
    const started = Date.now();
    const ref = imageRef(tag);
    await podman(
      [
        "build",
        // Docker's format keeps HEALTHCHECK (OCI's has no field for it).
        "--format",
        "docker",
        "--file",
        "docker/Dockerfile",
        "--target",
        target,
        "--build-arg",
        `BASE_IMAGE=${baseImage}`,
        ...buildCaSecret(),
        "--tag",
        ref,
        ".",
      ],
      { onLine: (l) => (/^(\[\d\/\d\] STEP|STEP|Done in|built |wrote )/.test(l) ? log(`  ${target}: ${l.slice(0, 160)}`) : undefined) },
    );
    built.push({ target, ref, bytes: await imageSize(ref) });
    log(`built ${ref} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return built;
}
