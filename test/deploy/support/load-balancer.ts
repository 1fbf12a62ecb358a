import http from "node:http";
import type { AddressInfo } from "node:net";

/** One gateway replica behind the balancer. */
export interface Upstream {
  name: string;
  port: number;
  ready: boolean;
  /** Answers it gave through the balancer. */
  served: number;
  /** Saw its /readyz answer 503 "draining" (readiness went false before it stopped). */
  sawDraining: boolean;
}

export interface LoadBalancer {
  url: string;
  upstreams: Upstream[];
  add(name: string, port: number): void;
  /** Requests the balancer could not hand to a ready replica, or whose replica failed them (no answer). */
  failures: string[];
  /** Answers of 500 and above the replicas gave (a loss too), each with the start of its body. */
  serverErrors: string[];
  /** The replicas that gave them: their logs say why. */
  serverErrorUpstreams(): string[];
  close(): Promise<void>;
}

/**
 * What a Kubernetes Service (kube-proxy following the endpoints' readiness) or any load balancer with
 * health checks does, in miniature: requests go round-robin to the replicas whose /readyz answered 200
 * at the last check (every 200 ms); a replica answering 503 leaves the rotation until it answers 200
 * again. One connection per proxied request, so a replica's closing listener is seen at once.
 */
export async function startLoadBalancer(): Promise<LoadBalancer> {
  const upstreams: Upstream[] = [];
  const failures: string[] = [];
  const serverErrors: string[] = [];
  const erring = new Set<string>();
  let next = 0;
  let stopped = false;

  const check = async (u: Upstream) => {
    try {
      const res = await fetch(`http://127.0.0.1:${u.port}/readyz`, { signal: AbortSignal.timeout(1000) });
      const body = await res.text();
      if (res.status === 503 && body.includes("draining")) u.sawDraining = true;
      u.ready = res.status === 200;
    } catch {
      u.ready = false;
    }
  };
  const poll = async () => {
    while (!stopped) {
      await Promise.all(upstreams.map(check));
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  void poll();

  const server = http.createServer((req, res) => {
    const ready = upstreams.filter((u) => u.ready);
    if (ready.length === 0) {
      failures.push(`${req.method} ${req.url}: no ready replica`);
      res.writeHead(503).end();
      return;
    }
    const u = ready[next++ % ready.length]!;
    const upstream = http.request({ host: "127.0.0.1", port: u.port, method: req.method, path: req.url, headers: req.headers, agent: false }, (answer) => {
      u.served++;
      if ((answer.statusCode ?? 0) >= 500) {
        // Kept with the body's start (its problem detail), read as it passes through.
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () =>
          serverErrors.push(`${req.method} ${req.url} -> ${u.name}: ${answer.statusCode} ${Buffer.concat(chunks).toString("utf8").slice(0, 300)}`),
        );
        erring.add(u.name);
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (err) => {
      failures.push(`${req.method} ${req.url} -> ${u.name}: ${err.message}`);
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    upstreams,
    add: (name, port) => void upstreams.push({ name, port, ready: false, served: 0, sawDraining: false }),
    failures,
    serverErrors,
    serverErrorUpstreams: () => [...erring],
    close: () =>
      new Promise<void>((resolve) => {
        stopped = true;
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
