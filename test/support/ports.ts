import { readFileSync } from "node:fs";
import net from "node:net";

/*
 * Ports for the servers a test starts (services, PostgreSQL, PgBouncer), picked below the kernel's
 * ephemeral range. A port the kernel hands out for listen(0) comes from that range, the one it also
 * draws from for every outgoing connection: between the pick and the server's own listen (a service
 * takes seconds to start) a connection of another process could take it, and the server then failed
 * with EADDRINUSE (seen once: a casefile-worker replica of the topology tests). Below the range only
 * another test's listener can take it, and a random pick makes that rare; the pick is still checked.
 *
 * A pick is also never handed out twice by one process: the soak picks every replica's port before it
 * starts any of them, so the check alone could give two replicas the same port. The second then failed
 * with EADDRINUSE after its readiness poll had been answered by the first (seen once in CI: a
 * casefile-worker replica "exited" during the replicas soak).
 */

const handedOut = new Set<number>();

function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32768;
  } catch {
    return 32768;
  }
}

const HIGH = ephemeralLow();
const LOW = Math.max(10_000, HIGH - 12_000);

function listensOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(undefined));
    srv.listen(port, "127.0.0.1", () => {
      const bound = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(bound));
    });
  });
}

/** A port that was free a moment ago, outside the ephemeral range where the machine allows it. */
export async function freePort(): Promise<number> {
  for (let i = 0; LOW < HIGH && i < 50; i++) {
    const pick = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handedOut.has(pick)) continue;
    const port = await listensOn(pick);
    if (port !== undefined) return handOut(port);
  }
  for (let i = 0; i < 50; i++) {
    const port = await listensOn(0);
    if (port !== undefined && !handedOut.has(port)) return handOut(port);
  }
  throw new Error("no free port");
}

function handOut(port: number): number {
  handedOut.add(port);
  return port;
}
