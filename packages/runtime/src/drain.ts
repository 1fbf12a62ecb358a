import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";

/**
 * A stopping service, in the order a rollout needs (Kubernetes, or any load balancer that follows
 * readiness): on SIGTERM it first only says so (`/readyz` answers 503 "draining", every HTTP answer
 * carries `Connection: close` so that kept-alive clients reconnect elsewhere) while it keeps working
 * for SHUTDOWN_DRAIN_DELAY_MS; then it stops taking work (the gateway closes its listener and finishes
 * the requests in flight, the workers take no new job and finish theirs) and exits.
 */
let draining = false;
const listeners = new Set<() => void>();

export function isDraining(): boolean {
  return draining;
}

/** Marks this process as stopping (runService does, on SIGTERM/SIGINT). */
export function beginDrain(): void {
  if (draining) return;
  draining = true;
  for (const l of listeners) l();
}

/** Called once when the drain begins (at once if it already has). */
export function onDrain(listener: () => void): void {
  if (draining) listener();
  else listeners.add(listener);
}

/** For tests that run a drain in-process and then another service. */
export function resetDrainForTests(): void {
  draining = false;
  listeners.clear();
}

export const DRAINING_ANSWER = { status: "draining" } as const;

function answerDraining(res: ServerResponse): void {
  res.writeHead(503, { "content-type": "application/json", connection: "close", "cache-control": "no-store" });
  res.end(JSON.stringify(DRAINING_ANSWER));
}

/**
 * The gateway's request handler wrapped for the drain: while draining, `/readyz` is 503 before the
 * application sees it, and every answer closes its connection (a kept-alive socket would otherwise
 * carry the client's next request to a listener about to close).
 */
export function drainAware(handler: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      if (req.url === "/readyz" || req.url?.startsWith("/readyz?")) return answerDraining(res);
      res.setHeader("connection", "close");
    }
    handler(req, res);
  };
}

/**
 * Stops an HTTP server the drained way: no new connection, idle kept-alive ones closed, the requests
 * in flight answered (their connections then close). Resolves when the last connection is gone.
 */
export function closeGracefully(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
