import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { performance } from "node:perf_hooks";
import { freePort } from "./ports";

/*
 * Webhook receivers for tests: a real HTTP server on 127.0.0.1 that records what it gets and
 * answers as told, plus endpoints that fail at the transport level (a listener that never accepts,
 * a port with nobody listening, a TLS port that speaks garbage).
 */

export interface ReceivedRequest {
  /** performance.now() when the request's body was complete: for measuring gaps between attempts. */
  at: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
}

export interface ReceiverAnswer {
  status: number;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
  /** Answer only once this settles (a receiver that holds the request). */
  hold?: Promise<unknown>;
  headers?: Record<string, string>;
  body?: string;
}

/** Decides the answer; `index` counts the requests to the same path, from 0. */
export type Responder = (request: ReceivedRequest, index: number) => ReceiverAnswer;

export interface Receiver {
  readonly port: number;
  /** The URL of a path on this receiver; give each subscription its own path. */
  url(path: string): string;
  /** Requests to a path, in arrival order. */
  requests(path: string): ReceivedRequest[];
  /** Sets how a path answers (default: 200). */
  on(path: string, responder: Responder): void;
  /** Resolves once a path has received `count` requests. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received = new Map<string, ReceivedRequest[]>();
  const responders = new Map<string, Responder>();
  const waiters = new Set<() => void>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const request: ReceivedRequest = {
        at: performance.now(),
        method: req.method ?? "",
        path,
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString("utf8"),
      };
      const list = received.get(path) ?? [];
      list.push(request);
      received.set(path, list);
      for (const w of waiters) w();
      const responder: Responder = responders.get(path) ?? (() => ({ status: 200 }));
      const answer = responder(request, list.length - 1);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "");
      };
      const delayed = () => (answer.delayMs ? setTimeout(send, answer.delayMs) : send());
      if (answer.hold) void answer.hold.then(delayed, delayed);
      else delayed();
    });
  });
  // Short keep-alive like many real receivers, so the dispatcher's pool must cope with closed sockets.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests: (path) => [...(received.get(path) ?? [])],
    on: (path, responder) => void responders.set(path, responder),
    waitFor(path, count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const list = received.get(path) ?? [];
          if (list.length < count) return;
          cleanup();
          resolve([...list]);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`receiver ${path}: ${(received.get(path) ?? []).length} of ${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TransportFault {
  url: string;
  close(): Promise<void>;
}

/** A port nobody listens on (connection refused). */
export async function closedPort(): Promise<TransportFault> {
  const port = await freePort();
  return { url: `http://127.0.0.1:${port}/refused`, close: async () => {} };
}

/** A plain TCP server for an https:// URL; `onData` decides what it does with the ClientHello. */
async function rawTlsPort(path: string, onData: (socket: net.Socket) => void): Promise<TransportFault> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.once("data", () => onData(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `https://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers the TLS ClientHello with garbage: the handshake fails after the connection was made. */
export function garbageTlsServer(): Promise<TransportFault> {
  return rawTlsPort("/tls", (socket) => socket.write("this is not TLS\r\n\r\n"));
}

/** Accepts the connection and never answers the ClientHello: a handshake that never completes. */
export function silentTlsServer(): Promise<TransportFault> {
  return rawTlsPort("/silent", () => {});
}

// listen(0) and never accept(): Linux keeps one connection in the accept queue and, once it is
// full, drops further SYNs, so the next connect hangs until the client's own timeout.
const NEVER_ACCEPT_PY = `
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0))
s.listen(0)
print(s.getsockname()[1], flush=True)
sys.stdin.read()
`;

/** Resolves with the socket once connected, or null after `timeoutMs`; every socket lands in `opened`. */
function connectWithin(port: number, timeoutMs: number, opened: Set<net.Socket>): Promise<net.Socket | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const timer = setTimeout(() => resolve(null), timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.on("error", () => {
      clearTimeout(timer);
      resolve(null);
    });
    // Half-open attempts too: they are destroyed with the listener.
    opened.add(socket);
  });
}

/**
 * A listener whose accept queue is full, so a new connection is never established: slower than any
 * connect limit. Needs python3 (Node's listeners always accept). Checks the trick works here and
 * throws if it does not, rather than letting a test pass or fail for the wrong reason.
 */
export async function neverAcceptingListener(): Promise<TransportFault> {
  const child: ChildProcess = spawn("python3", ["-c", NEVER_ACCEPT_PY], { stdio: ["pipe", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("python3 listener did not start within 30 s")), 30_000);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`python3 is needed for the connect-timeout listener: ${err.message}`));
    });
    child.stdout?.once("data", (d: Buffer) => {
      clearTimeout(timer);
      resolve(Number(d.toString().trim()));
    });
  });
  const opened = new Set<net.Socket>();
  const close = async () => {
    for (const s of opened) s.destroy();
    child.stdin?.end();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  };
  // Fill the queue: the first connections complete (the kernel queues them), then they stop doing so.
  for (let i = 0; i < 4; i++) {
    if (!(await connectWithin(port, 150, opened))) break;
  }
  const probe = await connectWithin(port, 300, opened);
  if (probe) {
    await close();
    throw new Error("the never-accepting listener still accepted a connection on this platform");
  }
  return { url: `http://127.0.0.1:${port}/never-accepted`, close };
}
