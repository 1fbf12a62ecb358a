import type dns from "node:dns";
import http from "node:http";
import https, { request as httpsRequest } from "node:https";
import net from "node:net";
import { performance } from "node:perf_hooks";
import { allowedNetworks, createGuardedLookup, isBlockedAddress, isBlockedPort, portOf } from "@esign/net-guard";
import type { AttemptCause, AttemptOutcome } from "@esign/webhooks";
import { classifyTransportError } from "./classify-error";
import { InFlightLimit } from "./in-flight-limit";

/** The contract's limits. Never scaled: WEBHOOK_LADDER_SCALE only stretches the gaps between attempts. */
export const CONNECT_TIMEOUT_MS = 200;
export const RESPONSE_TIMEOUT_MS = 1000;

// The answer's body is not used; it is read only so the connection can be reused, up to this much.
const MAX_DRAINED_BODY_BYTES = 64 * 1024;
// Below Node's default server keepAliveTimeout (5 s), so an idle socket is dropped by us first and a
// request never goes out on a connection the receiver is closing at that moment.
const FREE_SOCKET_TIMEOUT_MS = 4000;

/**
 * A time-out's verdict, given after the I/O already waiting for this process has been read (the
 * event loop runs due timers before it polls for I/O; setImmediate runs right after that poll).
 * When the dispatcher itself was kept off the CPU past a limit (a starved machine, a long GC), the
 * receiver's connection or answer may have arrived in time and only not been read yet: without
 * this, the timer fired first and the receiver was blamed for the dispatcher's stall, and retried
 * (seen in CI: a delivery that succeeded at its third attempt after two time-outs). A receiver that
 * really is late is still timed out, one loop turn later.
 */
function afterPendingIo(verdict: () => void): () => void {
  return () => setImmediate(verdict);
}

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface SendResult {
  outcome: AttemptOutcome;
  cause: AttemptCause;
  httpStatus: number | null;
  durationMs: number;
  /** A short reason for the logs (never the body, never a header value). */
  detail?: string;
}

export interface SenderOptions {
  /** false in production: loopback, private, link-local and reserved addresses are refused. */
  allowPrivate: boolean;
  /** Private networks allowed all the same (WEBHOOK_ALLOWED_PRIVATE_NETWORKS). */
  allowedNetworks?: readonly string[];
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  /** DNS resolver behind the guard; tests inject one to map names to addresses. */
  resolve?: typeof dns.lookup;
  /** Requests in flight at once (WEBHOOK_CONCURRENCY); more wait their turn before their clock starts. */
  maxInFlight?: number;
}

/**
 * Makes one delivery attempt. Connecting (DNS lookup included) has CONNECT_TIMEOUT_MS from the start
 * of the request; once the socket is connected, the status line must arrive within
 * RESPONSE_TIMEOUT_MS. Only 2xx is a success; redirects are not followed. Never throws: every
 * failure becomes a cause for the attempt log.
 */
export class WebhookSender {
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, timeout: FREE_SOCKET_TIMEOUT_MS, maxFreeSockets: 64 }),
    https: new https.Agent({ keepAlive: true, timeout: FREE_SOCKET_TIMEOUT_MS, maxFreeSockets: 64 }),
  };
  private readonly allowPrivate: boolean;
  private readonly allowed: net.BlockList | undefined;
  private readonly connectTimeoutMs: number;
  private readonly responseTimeoutMs: number;
  private readonly lookup: ReturnType<typeof createGuardedLookup> | undefined;
  private readonly inFlight: InFlightLimit | undefined;

  constructor(options: SenderOptions) {
    this.allowPrivate = options.allowPrivate;
    this.allowed = options.allowedNetworks?.length ? allowedNetworks(options.allowedNetworks) : undefined;
    this.connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.responseTimeoutMs = options.responseTimeoutMs ?? RESPONSE_TIMEOUT_MS;
    // The guard runs on the very address the socket connects to, so DNS rebinding cannot slip past it.
    this.lookup = options.allowPrivate && !options.resolve ? undefined : createGuardedLookup(options.allowPrivate, options.resolve, this.allowed);
    this.inFlight = options.maxInFlight === undefined ? undefined : new InFlightLimit(options.maxInFlight);
  }

  send(request: WebhookRequest): Promise<SendResult> {
    return this.inFlight ? this.inFlight.run(() => this.sendNow(request)) : this.sendNow(request);
  }

  private sendNow(request: WebhookRequest): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failure = (cause: AttemptCause, detail: string): SendResult => ({ outcome: "failure", cause, httpStatus: null, durationMs: elapsed(), detail });

    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return Promise.resolve(failure("network_error", "the endpoint is not a valid URL"));
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") return Promise.resolve(failure("network_error", `unsupported scheme ${url.protocol}`));
    // A literal IP is connected to without any lookup, so the guarded lookup never sees it.
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (!this.allowPrivate && net.isIP(host) !== 0 && isBlockedAddress(host, this.allowed)) {
      return Promise.resolve(failure("blocked_address", `${host} is not a public address`));
    }
    // Saved before the port rule, or edited around it: checked at every connection too.
    if (!this.allowPrivate && isBlockedPort(portOf(url))) return Promise.resolve(failure("blocked_address", `port ${portOf(url)} is not a web port`));

    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      let responseTimer: NodeJS.Timeout | undefined;
      let drainTimer: NodeJS.Timeout | undefined;
      const finish = (result: SendResult) => {
        clearTimeout(connectTimer);
        clearTimeout(responseTimer);
        if (settled) return;
        settled = true;
        resolve(result);
      };

      // Node's own client, not got: got's per-request option merging and cloning was 13% of the
      // dispatcher's CPU in a burst (bench/README.md, issue 25), for features a delivery does not use
      // (redirects, retries, decompression, hooks). A POST of a string body, no redirect, the
      // guarded lookup on every new connection, and the two time-outs below are all it needs.
      const secure = url.protocol === "https:";
      let req: http.ClientRequest;
      try {
        req = (secure ? httpsRequest : http.request)(url, {
          method: "POST",
          headers: { ...request.headers, "user-agent": "esign-webhooks/1.0", "content-length": Buffer.byteLength(request.body) },
          agent: secure ? this.agents.https : this.agents.http,
          lookup: this.lookup,
        });
      } catch (err) {
        return finish(failure("network_error", err instanceof Error ? err.message : String(err)));
      }

      let connected = false;
      connectTimer = setTimeout(
        afterPendingIo(() => {
          if (connected || settled) return;
          finish(failure("connect_timeout", `not connected within ${this.connectTimeoutMs} ms`));
          req.destroy();
        }),
        this.connectTimeoutMs,
      );

      const onConnected = () => {
        connected = true;
        clearTimeout(connectTimer);
        if (settled) return;
        responseTimer = setTimeout(
          afterPendingIo(() => {
            if (settled) return;
            finish(failure("response_timeout", `no response within ${this.responseTimeoutMs} ms of connecting`));
            req.destroy();
          }),
          this.responseTimeoutMs,
        );
      };

      req.once("socket", (socket: net.Socket) => {
        // A kept-alive socket is connected already; a new one (TLS too) emits 'connect' after TCP.
        if (socket.connecting) socket.once("connect", onConnected);
        else onConnected();
      });

      req.once("response", (response: http.IncomingMessage) => {
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        finish({ outcome: ok ? "success" : "failure", cause: ok ? "ok" : "non_2xx", httpStatus: status, durationMs: elapsed() });
        // Read (and drop) a bounded body so the socket goes back to the pool; give up on a big or
        // slow one: losing that connection is cheaper than waiting on it.
        let received = 0;
        drainTimer = setTimeout(() => req.destroy(), this.responseTimeoutMs);
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_DRAINED_BODY_BYTES) req.destroy();
        });
        // A connection cut while the body is read is no concern of the attempt's: it was answered.
        response.on("error", () => clearTimeout(drainTimer));
        response.once("end", () => clearTimeout(drainTimer));
        response.once("close", () => clearTimeout(drainTimer));
      });

      req.on("error", (err: Error) => {
        clearTimeout(drainTimer);
        finish(failure(classifyTransportError(err), err.message));
      });
      req.end(request.body);
    });
  }

  /** Closes pooled connections; in-flight attempts are not waited for (the workers are closed first). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
