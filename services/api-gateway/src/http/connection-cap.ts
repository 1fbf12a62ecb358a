import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "@esign/logger";
import { throttledLog } from "@esign/logger";

export interface ConnectionCapOptions {
  /** Open connections one address may hold; 0: no cap. */
  perAddress: number;
  /** Loopback peers count too (tests); otherwise a local proxy or probe is never capped. */
  includeLoopback: boolean;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * A per-address cap on open connections (issue 26, item 9): 300 sockets each sending a byte every
 * 2 s held the gateway's sockets and memory although no request of theirs was ever complete. The
 * timeouts end each of them; the cap stops one address from holding many at once. A connection over
 * the cap is closed as it opens, before any byte of it is read.
 */
export function capConnectionsPerAddress(server: Server, options: ConnectionCapOptions, logger: Logger): void {
  if (options.perAddress <= 0) return;
  const open = new Map<string, number>();
  const log = throttledLog(logger, 10_000);
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "unknown";
    if (!options.includeLoopback && LOOPBACK.test(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > options.perAddress) {
      log("warn", "connection refused: too many open connections from one address", { limit: options.perAddress });
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
