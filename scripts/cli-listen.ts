// Local webhook listener for development (planned as `pnpm cli webhooks listen ...`):
//   pnpm exec tsx scripts/cli-listen.ts --base-url URL --client-id ID --client-secret SECRET \
//     --events a,b|all [--forward-to http://localhost:4000/hook] [--port N]
// Starts a receiver on 127.0.0.1, creates a TEMPORARY webhook subscription pointing at it, prints one
// line per delivery (type, event id, verification result), optionally forwards each delivery (raw body
// and headers) to --forward-to, and deletes the subscription on Ctrl-C / SIGTERM.
// Development only: the subscription's endpoint is a plain-http loopback URL, which only a gateway in
// development mode accepts (WEBHOOK_ALLOW_PRIVATE, on by default outside production).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
// A relative import until the root package.json lists @esign/sdk.
import { EVENT_TYPES, EsignApiError, EsignClient, MemoryEventIdStore, parseSignatureHeader, verifyWebhook, type Subscription } from "@esign/sdk";

const USAGE = `usage: pnpm exec tsx scripts/cli-listen.ts --base-url URL --client-id ID --client-secret SECRET --events a,b|all
         [--forward-to URL] [--port N] [--path /webhooks] [--api-key KEY --api-secret SECRET]
         [--max-per-second N] [--ordered]

--max-per-second N throttles the temporary subscription (deliveries per second at most); --ordered
delivers each case file's events in order. A delivery made during a secret rotation's overlap shows
"2 signatures" (old and new secret's v1).

Creates a temporary webhook subscription that points at a receiver on 127.0.0.1 and deletes it on exit.
Works against a gateway in development mode only: production gateways refuse http and loopback endpoints.
--base-url, --client-id and --client-secret default to ESIGN_BASE_URL, ESIGN_CLIENT_ID, ESIGN_CLIENT_SECRET.
Known event types (or "all"):
  ${EVENT_TYPES.join("\n  ")}`;

const MAX_BODY_BYTES = 1024 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;
// Not passed on to --forward-to: they describe this hop, not the delivery.
const HOP_HEADERS = new Set([
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "te",
  "trailer",
  "upgrade",
  "proxy-connection",
  "proxy-authorization",
]);

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

class UsageError extends Error {}

interface Options {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  apiKey?: string;
  apiSecret?: string;
  eventTypes: string[];
  forwardTo?: string;
  port: number;
  path: string;
  maxPerSecond?: number;
  ordered: boolean;
}

const OPTIONS = {
  "base-url": { type: "string" },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  "api-key": { type: "string" },
  "api-secret": { type: "string" },
  events: { type: "string" },
  "forward-to": { type: "string" },
  port: { type: "string" },
  path: { type: "string" },
  "max-per-second": { type: "string" },
  ordered: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The options that take a value, and every option's spellings: what may follow one that takes a value. */
const VALUE_OPTIONS = new Set(Object.entries(OPTIONS).flatMap(([name, o]) => (o.type === "string" ? [`--${name}`] : [])));
const ANY_OPTION = new Set(Object.entries(OPTIONS).flatMap(([name, o]) => [`--${name}`, ...("short" in o ? [`-${o.short}`] : [])]));

/**
 * `--option value` as `--option=value` when the value begins with "-": a client secret is
 * base64url, one in 64 begins with "-", and parseArgs takes such a value for an option ("argument is
 * ambiguous"). A value that is itself one of the options stays an option (a forgotten value).
 */
function joinDashedValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    if (VALUE_OPTIONS.has(arg) && next?.startsWith("-") && !ANY_OPTION.has(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

function parseOptions(argv: string[]): Options | "help" {
  const { values } = parseArgs({
    args: joinDashedValues(argv),
    options: OPTIONS,
    strict: true,
  });
  if (values.help) return "help";
  const baseUrl = values["base-url"] ?? process.env.ESIGN_BASE_URL;
  const clientId = values["client-id"] ?? process.env.ESIGN_CLIENT_ID;
  const clientSecret = values["client-secret"] ?? process.env.ESIGN_CLIENT_SECRET;
  if (!baseUrl || !clientId || !clientSecret) throw new UsageError("--base-url, --client-id and --client-secret are required");
  if (!values.events) throw new UsageError('--events is required: a comma-separated list of event types, or "all"');
  const eventTypes =
    values.events.trim() === "all"
      ? [...EVENT_TYPES]
      : values.events
          .split(",")
          .map((t) => t.trim())
          .filter((t) => t !== "");
  if (eventTypes.length === 0) throw new UsageError("--events names no event type");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError("--port must be a port number (0 picks a free one)");
  const forwardTo = values["forward-to"];
  if (forwardTo !== undefined && !/^https?:\/\//i.test(forwardTo)) throw new UsageError("--forward-to must be an http(s) URL");
  if ((values["api-key"] === undefined) !== (values["api-secret"] === undefined)) throw new UsageError("--api-key and --api-secret go together");
  const path = values.path ?? "/webhooks";
  if (!path.startsWith("/")) throw new UsageError("--path must start with /");
  const maxPerSecond = values["max-per-second"] === undefined ? undefined : Number(values["max-per-second"]);
  if (maxPerSecond !== undefined && (!Number.isInteger(maxPerSecond) || maxPerSecond < 1))
    throw new UsageError("--max-per-second must be a whole number of at least 1");
  return {
    ...(maxPerSecond !== undefined ? { maxPerSecond } : {}),
    ordered: values.ordered === true,
    baseUrl,
    clientId,
    clientSecret,
    ...(values["api-key"] !== undefined && values["api-secret"] !== undefined ? { apiKey: values["api-key"], apiSecret: values["api-secret"] } : {}),
    eventTypes,
    ...(forwardTo !== undefined ? { forwardTo } : {}),
    port,
    path,
  };
}

function headerValue(headers: http.IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

function forwardHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    result[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return result;
}

function describeError(e: unknown): string {
  if (e instanceof EsignApiError) {
    const fields = e.errors?.map((f) => `\n  ${f.path}: ${f.message}`).join("") ?? "";
    return `${e.status} ${e.code}: ${e.message}${fields}`;
  }
  if (e instanceof Error) {
    const cause = e.cause instanceof Error ? ` (${(e.cause as { code?: string }).code ?? e.cause.message})` : "";
    return `${e.message}${cause}`;
  }
  return String(e);
}

async function main(): Promise<number> {
  let options: Options | "help";
  try {
    // Reached directly, or as `pnpm cli webhooks listen ...` (scripts/cli.ts drops the two verbs).
    const args = process.argv.slice(2);
    options = parseOptions(args[0] === "webhooks" && args[1] === "listen" ? args.slice(2) : args);
  } catch (e) {
    err(`${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`);
    return 2;
  }
  if (options === "help") {
    out(USAGE);
    return 0;
  }
  const opts = options;
  const client = new EsignClient({
    baseUrl: opts.baseUrl,
    credentials:
      opts.apiKey !== undefined && opts.apiSecret !== undefined
        ? { clientId: opts.clientId, clientSecret: opts.clientSecret, apiKey: opts.apiKey, apiSecret: opts.apiSecret }
        : { clientId: opts.clientId, clientSecret: opts.clientSecret },
  });

  let secret: string | undefined;
  const seen = new MemoryEventIdStore();

  async function onDelivery(headers: http.IncomingHttpHeaders, rawBody: Buffer): Promise<void> {
    const type = headerValue(headers, "x-event-type") ?? "(no X-Event-Type)";
    const id = headerValue(headers, "x-event-id") ?? "(no X-Event-Id)";
    let verdict: string;
    if (secret === undefined) {
      verdict = "NOT VERIFIED (arrived before the subscription existed)";
    } else {
      const result = await verifyWebhook({ secret, rawBody, headers, eventIdStore: seen });
      const parsed = parseSignatureHeader(headerValue(headers, "x-event-signature"));
      const overlap = parsed.ok && parsed.header.signatures.length > 1 ? `, ${parsed.header.signatures.length} signatures (secret rotation overlap)` : "";
      if (result.ok) verdict = `verified${overlap}`;
      else if (result.reason === "replayed_event") verdict = "verified, repeated event id (a retry or redelivery)";
      else verdict = `NOT VERIFIED (${result.reason}: ${result.message})`;
    }
    out(`${new Date().toISOString()}  ${type}  ${id}  ${verdict}`);
    if (opts.forwardTo === undefined) return;
    const started = Date.now();
    try {
      const res = await fetch(opts.forwardTo, {
        method: "POST",
        headers: forwardHeaders(headers),
        body: rawBody,
        redirect: "manual",
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      await res.arrayBuffer();
      out(`  -> forwarded ${id} to ${opts.forwardTo}: ${res.status} (${Date.now() - started} ms)`);
    } catch (e) {
      out(`  -> forwarding ${id} to ${opts.forwardTo} failed: ${describeError(e)}`);
    }
  }

  const server = http.createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      // Acknowledge at once: the dispatcher gives a receiver one second. Verifying and forwarding follow.
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      onDelivery(req.headers, Buffer.concat(chunks)).catch((e: unknown) => err(`handling a delivery failed: ${describeError(e)}`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, "127.0.0.1", () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}${opts.path}`;

  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  // Signals are handled from here on, also while the subscription is still being created.
  let creating: Promise<Subscription | undefined> = Promise.resolve(undefined);
  let stopping: Promise<number> | undefined;
  const stop = (reason: string): Promise<number> => {
    stopping ??= (async () => {
      const sub = await creating.catch(() => undefined);
      let code = 0;
      if (sub) {
        out(`${reason}: deleting temporary subscription ${sub.id} ...`);
        try {
          await client.subscriptions.delete(sub.id);
          out(`Deleted subscription ${sub.id}.`);
        } catch (e) {
          if (e instanceof EsignApiError && e.status === 404) {
            out(`Subscription ${sub.id} was already gone.`);
          } else {
            err(`Could not delete subscription ${sub.id}: ${describeError(e)}\nDelete it yourself (DELETE /webhook/api/v1/subscriptions/${sub.id}).`);
            code = 1;
          }
        }
      }
      await closeServer();
      return code;
    })();
    return stopping;
  };
  const finished = new Promise<number>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) {
        err(`${signal} again: exiting without cleaning up; the temporary subscription may remain.`);
        resolve(130);
        return;
      }
      void stop(signal).then(resolve);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });

  const create = client.subscriptions.create({
    eventTypes: opts.eventTypes,
    endpoint,
    ...(opts.maxPerSecond !== undefined ? { maxPerSecond: opts.maxPerSecond } : {}),
    ...(opts.ordered ? { ordered: true } : {}),
  });
  creating = create;
  let sub: Subscription;
  try {
    sub = await create;
  } catch (e) {
    err(`Could not create the temporary subscription: ${describeError(e)}`);
    if (e instanceof EsignApiError && e.errors?.some((f) => f.path === "endpoint")) {
      err(`The gateway refused ${endpoint}: listening needs a gateway in development mode, which accepts http loopback endpoints.`);
    } else if (e instanceof EsignApiError && e.status === 409) {
      err("The customer already has 5 active subscriptions: disable or delete one first.");
    }
    await closeServer();
    return 1;
  }
  secret = sub.secret;
  out(`Listening on ${endpoint}`);
  const types = sub.eventTypes.length === EVENT_TYPES.length ? "all event types" : sub.eventTypes.join(", ");
  const controls = [sub.maxPerSecond ? `at most ${sub.maxPerSecond}/s` : "", sub.ordered ? "ordered per case file" : ""].filter(Boolean).join(", ");
  out(`Temporary subscription ${sub.id} (${types})${controls ? `, ${controls}` : ""}`);
  out(`Webhook secret of this subscription (for the handler behind --forward-to): ${sub.secret}`);
  if (opts.forwardTo !== undefined) out(`Forwarding each delivery to ${opts.forwardTo}`);
  out("Press Ctrl-C to stop; the subscription is deleted on exit.");
  return finished;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    err(`cli-listen failed: ${describeError(e)}`);
    process.exit(1);
  },
);
