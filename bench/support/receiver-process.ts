import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "@esign/webhook-verify";

/*
 * The webhook receiver of the dispatch and retry scenarios, in a process of its own so that its
 * timestamps do not wait behind the load generator's event loop. Records, per request: X-Event-Id,
 * path and arrival time (epoch ms, when the body was complete); answers with the configured status.
 * Deliveries to paths with a known secret are verified with @esign/webhook-verify.
 */

let status = 200;
let secrets: Record<string, string> = {};
let ids: string[] = [];
let paths: string[] = [];
let at: number[] = [];
let intended: number[] = [];
let verifiedOk = 0;
let verifiedFailed = 0;

const now = () => performance.timeOrigin + performance.now();

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const arrived = now();
    const path = req.url ?? "/";
    const id = req.headers["x-event-id"];
    ids.push(typeof id === "string" ? id : "");
    paths.push(path);
    at.push(arrived);
    const bench = req.headers["x-bench-intended"];
    intended.push(typeof bench === "string" ? Number(bench) : NaN);
    const secret = secrets[path];
    if (secret) {
      void verifyWebhook({ secret, rawBody: Buffer.concat(chunks), headers: req.headers }).then(
        (v) => (v.ok ? (verifiedOk += 1) : (verifiedFailed += 1)),
        () => (verifiedFailed += 1),
      );
    }
    res.writeHead(status, { "content-type": "text/plain", "content-length": "2" });
    res.end(status === 200 ? "ok" : "no");
  });
});
// Like a typical receiver (Node's default 5 s); the dispatcher's pool drops idle sockets at 4 s.
server.keepAliveTimeout = 5000;
server.maxRequestsPerSocket = 0;

process.on("message", (msg: { cmd: string; status?: number; secrets?: Record<string, string>; reset?: boolean }) => {
  if (msg.cmd === "config") {
    if (msg.status) status = msg.status;
    if (msg.secrets) secrets = msg.secrets;
    process.send?.({ type: "config" });
  } else if (msg.cmd === "count") {
    process.send?.({ type: "count", n: at.length });
  } else if (msg.cmd === "dump") {
    process.send?.({ type: "dump", ids, paths, at, intended, verifiedOk, verifiedFailed });
    if (msg.reset) {
      ids = [];
      paths = [];
      at = [];
      intended = [];
      verifiedOk = 0;
      verifiedFailed = 0;
    }
  } else if (msg.cmd === "stop") {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
process.on("disconnect", () => process.exit(0));

server.listen(0, "127.0.0.1", () => {
  process.send?.({ type: "ready", port: (server.address() as AddressInfo).port });
});
