import net from "node:net";
import path from "node:path";
import { z } from "zod";
import { IDENTITY_SETTINGS, identitySettingProblems } from "./identity-settings";
import { SSO_SETTINGS, ssoSettingProblems } from "./sso-settings";
import { publicUrlProblem, weakKeyReason } from "./key-strength";

// Relative paths in settings mean "from the repository root", whichever folder a service starts in.
const REPO_ROOT = path.resolve(__dirname, "../../..");
const fromRoot = (p: string) => path.resolve(REPO_ROOT, p);

// Booleans in the environment are strings; "false" must not become true.
const zBool = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) => v === "true" || v === "1" || v === "yes");

const zInt = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

/**
 * Every setting of every service, parsed once at boot. Defaults are the development ones so that a
 * fresh machine runs with no configuration; production refuses to start without its secrets.
 */
/** Every setting a service reads from its environment (docs/operating.md, "Settings", lists each one). */
export const ZEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Development mode (any NODE_ENV but production) on a non-loopback HOST: refused unless this is true. */
  ALLOW_DEVELOPMENT_ON_NETWORK: zBool.optional(),
  LOG_LEVEL: z.enum(["error", "warn", "info", "http", "verbose", "debug", "silly"]).default("info"),
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),

  PORT: zInt(3000),
  HOST: z.string().default("127.0.0.1"),
  PUBLIC_BASE_URL: z.url().optional(),
  HEALTH_PORT: z.coerce.number().int().min(0).optional(),

  DATABASE_URL: z.string().min(1).default("postgresql://postgres@127.0.0.1:5432/esign"),
  /**
   * A direct connection (a session of its own) for what a transaction-mode pooler cannot carry: the
   * outbox relay's LISTEN and the migrations' advisory lock. Set it when DATABASE_URL goes through
   * PgBouncer in transaction mode; unset, DATABASE_URL serves both.
   */
  DATABASE_SESSION_URL: z.string().min(1).optional(),
  /** Connections one replica's pool opens at most (unset: 10; the notifier WORKER_CONCURRENCY + 2). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).optional(),
  REDIS_URL: z.string().min(1).default("redis://127.0.0.1:6379"),
  /**
   * Redis Cluster: seed nodes, `host:port` separated by commas (REDIS_URL then only lends its
   * password and TLS setting). QUEUE_PREFIX must then carry a hash tag (`{esign}`), so that every key
   * of the platform lives in one slot: BullMQ's scripts touch several keys of a queue at once.
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^\s*[^\s:,]+:\d+(\s*,\s*[^\s:,]+:\d+)*\s*$/, "must be host:port seed nodes separated by commas")
    .transform((v) => v.split(",").map((n) => n.trim()))
    .optional(),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_{}-]+$/)
    .default("esign"),

  JWT_SECRET: z.string().min(32).optional(),
  JWT_ISSUER: z.string().default("esign-api-gateway"),
  JWT_AUDIENCE: z.string().default("esign-api"),
  /** Access-token lifetime (Penneo's own: 10 minutes; ours defaults to an hour). */
  JWT_TTL_SECONDS: zInt(3600, 60),
  /**
   * How long a gateway trusts what it read about a credential (revoked? rotated?) before it reads it
   * again: a revoked or rotated credential's access tokens stop working within this long.
   */
  CREDENTIAL_CHECK_CACHE_MS: zInt(2000, 0),
  /** Refresh-token lifetime (`grant_type=refresh_token`); each use rotates the token. */
  REFRESH_TOKEN_TTL_SECONDS: zInt(14 * 24 * 3600, 60),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes)")
    .optional(),
  /**
   * Keys ENCRYPTION_KEY replaced, comma-separated: still read (never written) until
   * `pnpm cli secrets reencrypt` has moved every stored value to ENCRYPTION_KEY.
   */
  ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .regex(/^\s*[0-9a-fA-F]{64}(\s*,\s*[0-9a-fA-F]{64})*\s*$/, "must be 64-hex-character keys separated by commas")
    .transform((v) => v.split(",").map((k) => k.trim().toLowerCase()))
    .default([]),

  /**
   * Where documents live: `local`, the folder STORAGE_DIR (every replica must see the same one), or
   * `s3`, a bucket of AWS S3 or any store speaking its protocol (STORAGE_DIR then only stages uploads).
   */
  STORAGE_BACKEND: z.enum(["local", "s3"]).default("local"),
  STORAGE_DIR: z.string().default(".data/files"),
  S3_BUCKET: z.string().min(3).optional(),
  /** Unset: AWS S3 in S3_REGION. Any other store: its URL (`https://minio.example.com:9000`). */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** Unset (both): the AWS SDK's own chain (AWS_* variables, a web identity token, the instance's role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** `bucket` in the path instead of the host name; unset: true when S3_ENDPOINT is set (what most other stores want). */
  S3_FORCE_PATH_STYLE: zBool.optional(),
  /** Prepended to every object key, e.g. `documents/`. */
  S3_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "letters, digits and !_.*'()/- only")
    .optional(),
  UPLOAD_MAX_FILE_BYTES: zInt(50 * 1024 * 1024, 1),
  UPLOAD_MAX_FILES: zInt(20, 1),
  UPLOAD_MAX_FIELD_BYTES: zInt(1024 * 1024, 1),
  UPLOAD_MAX_FIELDS: zInt(4, 1),
  /**
   * Slow clients (issue 26, item 9): the request head must arrive within HTTP_HEADERS_TIMEOUT_MS and
   * the whole request within HTTP_REQUEST_TIMEOUT_MS (default: a 50 MB upload at 200 KB/s, 250 s, with
   * a margin); one client address holds at most HTTP_MAX_CONNECTIONS_PER_ADDRESS open connections to
   * one gateway (0: no cap). The cap counts socket addresses, so it applies only without TRUST_PROXY
   * (behind a load balancer every socket is the balancer's: cap there) and not to loopback peers unless
   * HTTP_CONNECTION_CAP_LOOPBACK=true.
   */
  HTTP_HEADERS_TIMEOUT_MS: zInt(10_000, 1000),
  /**
   * How long an idle kept-alive connection stays open (Node's default is 5 s). Longer than the usual
   * load balancer's (AWS ALB: 60 s) and than undici's 4 s, so that the client or the balancer closes an
   * idle connection first: with 5 s a client that reused a connection as the gateway closed it got
   * EPIPE instead of its answer, and a POST is not retried for it (a clean-clone CI run lost a create
   * so). Idle time counts against neither timeout above; SIGTERM closes idle connections at once.
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: zInt(65_000, 1000),
  HTTP_REQUEST_TIMEOUT_MS: zInt(300_000, 1000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: zInt(100, 0),
  HTTP_CONNECTION_CAP_LOOPBACK: zBool.default(false),
  /**
   * Child processes of the gateway that open every uploaded PDF before the create is answered (and
   * check every public /verify). Two by default, so that with PDF_INSPECT_PER_CUSTOMER=1 one
   * customer's uploads never hold them all (issue 26, item 2).
   */
  PDF_INSPECTORS: zInt(2, 1),
  /** An upload not opened within this long (from when a process takes it) is refused as too costly (`pdf_too_costly`) and its process replaced. */
  PDF_INSPECT_TIMEOUT_MS: zInt(20_000, 100),
  /** Bytes one document may decompress when opened (object and xref streams); beyond it `pdf_too_costly`. */
  PDF_INSPECT_MAX_INFLATED_BYTES: zInt(64 * 1024 * 1024, 1024 * 1024),
  /** Heap of each inspector process in MiB; a document that needs more kills only its own process and is refused as `pdf_too_costly`. */
  PDF_INSPECT_MAX_HEAP_MB: zInt(384, 64),
  /** Files of one customer (or, for /verify, one address) inspected at once; the rest wait their turn, round-robin with other customers'. */
  PDF_INSPECT_PER_CUSTOMER: zInt(1, 1),
  /**
   * Work-conserving inspection: a customer past its share may use a process nobody else has work
   * for; once such a run is this old (ms) and another customer's file waits, it is stopped and runs
   * again in its own turn. 0: never past the share (a single busy customer uses one process).
   */
  PDF_INSPECT_BORROW_MS: zInt(500, 0),
  /**
   * Files of the customer an inspector process works for that are sent to it ahead, to wait there
   * behind its current file, while no other customer has a file waiting (asked back when one
   * arrives). On a saturated gateway the round trip through its event loop between two files, not
   * the parse, bounded the inspection rate (bench/README.md, issue 25). 0: one file per process at a
   * time, the next sent only after the answer.
   */
  PDF_INSPECT_PREFETCH: z.coerce.number().int().min(0).max(64).default(4),
  /**
   * Scheduling niceness of the inspector processes (0-19). 0 by default: at 10 a saturated machine
   * starved them (the gateway kept accepting creates it could not finish: the inspect stage went to
   * 0.5-0.8 s at 247/s), while /healthz under the bomb and /verify attacks read the same at 0 and 10
   * (bench/README.md, issue 25); the per-document bounds are what isolate a customer.
   */
  PDF_INSPECT_NICE: z.coerce.number().int().min(0).max(19).default(0),

  JOB_RETENTION_DAYS: zInt(14, 1),
  /** Job-status polls answered per job per minute (Penneo's limit: 20); beyond it 429 + Retry-After. 0: no limit. */
  JOB_POLL_LIMIT_PER_MINUTE: zInt(20, 0),
  /** Most items one page of a list answers (GET casefiles, documents, ...); an unpaged list answers this many and a Link to the next page. */
  LIST_MAX_PAGE_SIZE: zInt(1000, 1),
  /**
   * A create whose payloadHash repeats one of the same customer's within this many seconds (and
   * carries no Idempotency-Key) ends as `aborted_duplicated`, as Penneo's API does. 0: off.
   */
  DUPLICATE_SUBMISSION_WINDOW_SECONDS: zInt(60, 0),
  CREATE_JOB_MAX_ATTEMPTS: zInt(3, 1),

  /*
   * Abuse limits, counted in Redis so that replicas share them; each 0 turns that limit off. Failure
   * limits count only failed attempts (a client that gets it right is never slowed).
   */
  /**
   * Wrong secrets, digests or refresh tokens per client (client_id, or API key for WSSE) and address
   * per minute: beyond it that address may not try that client for the rest of the minute (Auth0's
   * brute-force protection, "count per identifier and IP").
   */
  TOKEN_FAILURES_PER_CLIENT_ADDRESS_PER_MINUTE: zInt(10, 0),
  /**
   * Wrong credentials per client per minute from all addresses together (a guess spread over many
   * addresses); beyond it only the addresses this client authenticated from lately may go on.
   */
  TOKEN_FAILURES_PER_CLIENT_PER_MINUTE: zInt(100, 0),
  /** Failed token requests and WSSE authentications per client address per minute, whichever clients they name. */
  TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE: zInt(30, 0),
  /** How long an address a client authenticated from counts as one of its usual addresses. */
  TOKEN_KNOWN_ADDRESS_DAYS: zInt(30, 1),
  /** All token requests per client address per minute. */
  TOKEN_REQUESTS_PER_ADDRESS_PER_MINUTE: zInt(300, 0),
  /** Requests with an unknown signing link per client address per minute (link guessing). */
  SIGNING_FAILURES_PER_ADDRESS_PER_MINUTE: zInt(30, 0),
  /** All signing-page requests per client address per minute. */
  SIGNING_REQUESTS_PER_ADDRESS_PER_MINUTE: zInt(600, 0),
  /** Public POST /verify requests per client address per minute (each holds a PDF in memory). */
  VERIFY_REQUESTS_PER_ADDRESS_PER_MINUTE: zInt(30, 0),
  /** Failed web-application sign-ins per client address per minute. */
  SIGNIN_FAILURES_PER_ADDRESS_PER_MINUTE: zInt(30, 0),
  /** Failed sign-ins per email from one address within SIGNIN_LOCKOUT_SECONDS: then that pair is locked out. */
  SIGNIN_FAILURES_PER_EMAIL: zInt(10, 0),
  SIGNIN_LOCKOUT_SECONDS: zInt(900, 1),

  /** Web-application sessions (cookie esign_session): ended after this long without a request... */
  SESSION_IDLE_SECONDS: zInt(3600, 60),
  /** ...and this long after the sign-in, whatever happened since. */
  SESSION_ABSOLUTE_SECONDS: zInt(12 * 3600, 60),
  /** Creates per customer per minute. */
  CREATES_PER_CUSTOMER_PER_MINUTE: zInt(600, 0),
  /**
   * Uploads of one customer refused as too costly to inspect (`pdf_too_costly`) per minute; past it
   * the customer's creates are 429 before their files are read, so that a customer sending inflation
   * bombs spends a bounded share of the inspectors (issue 26, item 2).
   */
  COSTLY_PDFS_PER_CUSTOMER_PER_MINUTE: zInt(10, 0),
  /** Job polls per customer (of the polled job) per minute, on top of the per-job limit. */
  JOB_POLLS_PER_CUSTOMER_PER_MINUTE: zInt(1200, 0),
  /** All job-status polls (public, no login) per client address per minute, counted before the lookup. */
  JOB_POLLS_PER_ADDRESS_PER_MINUTE: zInt(1200, 0),
  /** Job-status polls for unknown jobs (or a wrong payloadHash) per client address per minute; beyond it nothing more that minute. */
  JOB_POLL_FAILURES_PER_ADDRESS_PER_MINUTE: zInt(60, 0),
  /** Multiplies every request rate limit above (load tests, test suites); never below 1. */
  RATE_LIMIT_SCALE: z.coerce.number().min(1).default(1),
  /**
   * Express's `trust proxy`: unset, the client address is the socket's. Behind a load balancer set
   * it (a hop count, `loopback`, or the balancers' addresses) or every client shares its address.
   */
  TRUST_PROXY: z.string().optional(),
  /** Caps of one case file (400 beyond them). */
  CASEFILE_MAX_SIGNERS: zInt(100, 1),
  CASEFILE_MAX_DOCUMENTS: zInt(50, 1),
  CASEFILE_MAX_CC_RECIPIENTS: zInt(50, 0),
  /** Emails per customer per minute; the notifier holds back the rest (delayed, never dropped). */
  MAILS_PER_CUSTOMER_PER_MINUTE: zInt(300, 0),
  QUEUE_LOCK_DURATION_MS: zInt(30_000, 1000),
  /** How often the casefile-worker's sweeper looks for work PostgreSQL holds without a job (idle 30 s). */
  SWEEP_INTERVAL_MS: zInt(15_000, 1000),
  QUEUE_STALLED_INTERVAL_MS: zInt(30_000, 1000),
  WORKER_CONCURRENCY: zInt(4, 1),
  OUTBOX_POLL_INTERVAL_MS: zInt(1000, 50),
  // Which services run an outbox relay: the casefile-worker by default; the dispatcher too only when
  // asked (it then costs an empty claim per committed change), e.g. when it runs without a
  // casefile-worker; "none" for tests that publish the outbox's jobs themselves.
  OUTBOX_RELAY_SERVICES: z
    .string()
    .default("casefile-worker")
    .transform((v) =>
      v.trim() === "none"
        ? []
        : v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
    )
    .pipe(z.array(z.enum(["casefile-worker", "webhook-dispatcher"]))),

  /** Multiplies every retry delay: below 1 to compress the ladder (tests, demos), above 1 to stretch it (tests that keep failed deliveries waiting). */
  WEBHOOK_LADDER_SCALE: z.coerce.number().positive().max(1000).default(1),
  WEBHOOK_ALLOW_PRIVATE: zBool.optional(),
  /**
   * Private networks (CIDR, comma-separated) that webhook endpoints may reach in production too: a
   * receiver inside the customer's or the platform's own network. Everything else about an endpoint
   * still holds (https in production, a web port); unset, only public addresses.
   */
  WEBHOOK_ALLOWED_PRIVATE_NETWORKS: z
    .string()
    .transform((v, ctx) => {
      const networks = v
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean);
      for (const n of networks) {
        const [address, bits, extra] = n.split("/");
        const family = address ? net.isIP(address) : 0;
        const prefix = Number(bits);
        if (family === 0 || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) {
          ctx.addIssue({ code: "custom", message: `"${n}" is not a network in CIDR notation (10.20.0.0/16, 127.0.0.1/32, fd00::/8)` });
        }
      }
      return networks;
    })
    .optional(),
  WEBHOOK_CONCURRENCY: zInt(50, 1),
  /** How long a rotated-out secret still signs deliveries (a second `v1=`), unless the call says otherwise. */
  WEBHOOK_ROTATION_OVERLAP_SECONDS: zInt(86_400, 0),
  /** Deliveries a recover task puts back on a new ladder per batch, and the pause between its batches. */
  WEBHOOK_RECOVER_BATCH_SIZE: zInt(500, 1),
  WEBHOOK_RECOVER_BATCH_PAUSE_MS: zInt(1000, 0),
  /** How long a subscription's deliveries must keep failing before the `webhook.subscription.failing` warning. */
  WEBHOOK_FAILING_AFTER_MS: zInt(86_400_000, 1000),

  /** Length of the "day" of reminderInterval; lower it for tests and demos. */
  REMINDER_DAY_MS: zInt(86_400_000, 1),
  /** e-Boks gateway adapter; only the named development simulator exists today. */
  EBOKS_GATEWAY: z.enum(["simulator"]).default("simulator"),
  /** Identity provider for secure signing methods (OpenID Connect or the simulator): identity-settings.ts. */
  ...IDENTITY_SETTINGS,
  ...SSO_SETTINGS,
  /** Where the e-Boks simulator drops the mailbox messages it "delivers" (one JSON file each). */
  EBOKS_SIMULATOR_DIR: z.string().default(".data/eboks"),

  /**
   * On SIGTERM, how long a service keeps working with /readyz answering 503 before it stops taking
   * work: the time load balancers need to notice. 0 where the orchestrator removes the endpoint
   * itself before the signal (Kubernetes: the preStop pause).
   */
  SHUTDOWN_DRAIN_DELAY_MS: zInt(0, 0),

  /** `GET /metrics` (Prometheus text) on the gateway and on each worker's health port. */
  METRICS_ENABLED: zBool.default(true),
  /** When set, a scrape must send `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * Count the queries (round trips) and transactions each process sends PostgreSQL, on /metrics
   * (`esign_db_round_trips`, `esign_db_transactions`): what the benchmark reads per case file and per
   * delivery. Off by default: off, no connection is wrapped.
   */
  DB_STATEMENT_METRICS: zBool.default(false),
  /**
   * Typed SQL whose text repeats runs as prepared statements, parsed and planned once per connection
   * (@esign/db typed-sql/prepared.ts). Set false when DATABASE_URL goes through a transaction-mode
   * pooler without prepared-statement support (PgBouncer before 1.21).
   */
  DB_PREPARED_STATEMENTS: zBool.default(true),
  /** bull-board at /admin/queues on the gateway: on in development, off in production unless true. */
  QUEUE_DASHBOARD: zBool.optional(),
  /** No retry/clean/add/remove from the dashboard: true by default in production. */
  QUEUE_DASHBOARD_READ_ONLY: zBool.optional(),

  /**
   * The platform's seal: a PKCS#12 file with the seal key and certificate (chain optional). The
   * casefile-worker, the one service that seals, refuses to start in production without it.
   */
  SEAL_P12_PATH: z.string().min(1).optional(),
  SEAL_P12_PASSWORD: z.string().optional(),
  /** Development seal (local CA + seal certificate), created on first start when SEAL_P12_PATH is unset. */
  SEAL_DEVELOPMENT_DIR: z.string().default(".data/seal"),
  /** RFC 3161 timestamp authority: with it, seals reach PAdES B-T (B-B without). */
  TSA_URL: z.url({ protocol: /^https?$/ }).optional(),

  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("E-Sign <no-reply@esign.local>"),
  MAIL_OUTBOX_DIR: z.string().default(".data/outbox"),
});

export type AppConfig = ReturnType<typeof deriveConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

// Development keys are fixed so that tokens survive restarts on a laptop; they are never used in production.
const DEV_JWT_SECRET = "development-only-jwt-secret-do-not-use-in-production";
const DEV_ENCRYPTION_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

function deriveConfig(env: z.infer<typeof ZEnv>) {
  const production = env.NODE_ENV === "production";
  return {
    ...env,
    mode: production ? ("production" as const) : ("development" as const),
    production,
    JWT_SECRET: env.JWT_SECRET ?? DEV_JWT_SECRET,
    ENCRYPTION_KEY: env.ENCRYPTION_KEY ?? DEV_ENCRYPTION_KEY,
    /** What may decrypt: ENCRYPTION_KEY (what encrypts) first, then ENCRYPTION_KEYS_PREVIOUS. */
    ENCRYPTION_KEYRING: [env.ENCRYPTION_KEY ?? DEV_ENCRYPTION_KEY, ...env.ENCRYPTION_KEYS_PREVIOUS] as readonly string[],
    PUBLIC_BASE_URL: (env.PUBLIC_BASE_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/$/, ""),
    LOG_FORMAT: env.LOG_FORMAT ?? (production ? "json" : "pretty"),
    STORAGE_DIR: fromRoot(env.STORAGE_DIR),
    S3_FORCE_PATH_STYLE: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
    MAIL_OUTBOX_DIR: fromRoot(env.MAIL_OUTBOX_DIR),
    EBOKS_SIMULATOR_DIR: fromRoot(env.EBOKS_SIMULATOR_DIR),
    SEAL_P12_PATH: env.SEAL_P12_PATH === undefined ? undefined : fromRoot(env.SEAL_P12_PATH),
    SEAL_DEVELOPMENT_DIR: fromRoot(env.SEAL_DEVELOPMENT_DIR),
    // Loopback and plain http receivers only make sense on a developer's machine.
    WEBHOOK_ALLOW_PRIVATE: env.WEBHOOK_ALLOW_PRIVATE ?? !production,
    QUEUE_DASHBOARD: env.QUEUE_DASHBOARD ?? !production,
    QUEUE_DASHBOARD_READ_ONLY: env.QUEUE_DASHBOARD_READ_ONLY ?? production,
  };
}

const isLoopback = (host: string) => host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);

/** Parses the environment once; throws ConfigError naming every bad setting. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  // An empty value is an unset one (`TSA_URL=` in a .env file, compose's `${TSA_URL:-}`): it takes the
  // default instead of failing as an invalid URL or number.
  const given = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  const parsed = ZEnv.safeParse(given);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  if (env.NODE_ENV === "production") {
    if (!env.JWT_SECRET) problems.push("JWT_SECRET: required in production (at least 32 characters)");
    if (!env.ENCRYPTION_KEY) problems.push("ENCRYPTION_KEY: required in production (64 hex characters)");
    if (env.WEBHOOK_ALLOW_PRIVATE === true) problems.push("WEBHOOK_ALLOW_PRIVATE: cannot be true in production");
    // The development keys are published in this repository: with them anyone can mint tokens and read secrets.
    if (env.JWT_SECRET === DEV_JWT_SECRET) problems.push("JWT_SECRET: the development key is public; set a random secret (openssl rand -hex 32)");
    if (env.ENCRYPTION_KEY?.toLowerCase() === DEV_ENCRYPTION_KEY)
      problems.push("ENCRYPTION_KEY: the development key is public; set a random key (openssl rand -hex 32)");
    // A typed key ("x" x 40, "0" x 64) passes the length checks and falls to the first guess.
    for (const [name, value, devKey] of [
      ["JWT_SECRET", env.JWT_SECRET, DEV_JWT_SECRET],
      ["ENCRYPTION_KEY", env.ENCRYPTION_KEY, DEV_ENCRYPTION_KEY],
    ] as const) {
      const weak = value && value.toLowerCase() !== devKey ? weakKeyReason(value) : undefined;
      if (weak) problems.push(`${name}: too weak for production, ${weak}; set a random key (openssl rand -hex 32)`);
    }
    const publicUrl = publicUrlProblem(env.PUBLIC_BASE_URL, env.HOST, env.PORT);
    if (publicUrl) problems.push(publicUrl);
    if (env.METRICS_ENABLED !== false && !env.METRICS_TOKEN) {
      problems.push("METRICS_TOKEN: required in production while metrics are on (at least 16 characters), or set METRICS_ENABLED=false");
    }
  } else if (!isLoopback(env.HOST) && env.ALLOW_DEVELOPMENT_ON_NETWORK !== true) {
    // Development mode has public keys, loopback webhooks and a writable dashboard: never on a network.
    problems.push(
      `HOST: development mode (NODE_ENV=${env.NODE_ENV}) listens on loopback only, not "${env.HOST}"; ` +
        "set NODE_ENV=production for anything reachable from outside, or ALLOW_DEVELOPMENT_ON_NETWORK=true on a network you trust",
    );
  }
  if (env.STORAGE_BACKEND === "s3" && !env.S3_BUCKET) problems.push("S3_BUCKET: required when STORAGE_BACKEND=s3");
  if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
    problems.push("S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither (the AWS SDK's own credentials)");
  }
  if (env.REDIS_CLUSTER_NODES && !/\{[^{}]+\}/.test(env.QUEUE_PREFIX)) {
    problems.push(`QUEUE_PREFIX: on Redis Cluster it must carry a hash tag, e.g. "{${env.QUEUE_PREFIX}}", so that each queue's keys share a slot`);
  }
  problems.push(...identitySettingProblems(env));
  problems.push(...ssoSettingProblems(env));
  if (problems.length > 0) throw new ConfigError(problems);
  return deriveConfig(env);
}
