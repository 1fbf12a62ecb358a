import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/*
 * Whether the process `pid` is the one listening on TCP `port` (Linux: the listening socket's inode in
 * /proc/net/tcp and tcp6 among the process's file descriptors). A readiness poll answered on a service's
 * port is not proof that the service answered: five test shards pick ports at random, and while a
 * service that is about to fail (a production worker without its seal) has not listened yet, another
 * shard's service can take the same port and answer /readyz for it (seen once in CI: the sealed
 * documents suite's worker "started" without its seal).
 */

const LISTEN = "0A";

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; st is the fourth field, inode the tenth.
      if (f[1]?.endsWith(`:${hexPort}`) && f[3] === LISTEN && f[9]) inodes.add(f[9]);
    }
  }
  return inodes;
}

/** True when `pid` holds a socket listening on `port`; undefined where /proc cannot tell (not Linux). */
export function listensOnPort(pid: number, port: number): boolean | undefined {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined;
  }
  const inodes = listeningInodes(port);
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m?.[1] && inodes.has(m[1])) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}
