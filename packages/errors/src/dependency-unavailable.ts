/** The engines every service depends on; while one is away, work waits instead of failing. */
export type Dependency = "postgres" | "redis" | "storage";

/**
 * The code of the error @esign/storage throws when the object store (S3) could not be reached or
 * answered a transient failure to every try of an operation: the store is away, not the request wrong.
 */
export const STORAGE_UNAVAILABLE_CODE = "ESTORAGE_UNAVAILABLE";

// Prisma's codes for "the database could not be reached or dropped us": can't reach, timed out,
// operations timed out, server closed the connection, no pool connection in time, too many connections.
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
// Prisma's driver adapter (adapter-pg) names the same failures by kind.
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
// Node's socket errors, as pg reports a failed connect.
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// What pg says when the server went away under a client, or a connect did not finish in time.
const PG_MESSAGES = [
  /^Connection terminated/,
  /connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /Can't reach database server/,
];
// What ioredis (and BullMQ on it) says to a caller while the connection is down: fail-fast
// connections refuse at once, others give up after maxRetriesPerRequest.
const REDIS_MESSAGES = [
  /^Connection is closed\.?$/,
  /^Stream isn't writeable and enableOfflineQueue options is false/,
  /^Reached the max retries per request limit/,
];

/**
 * SQLSTATEs of a server that is away or going away: class 08 (connection exception), 57P01-57P03
 * (terminated by an administrator, crash shutdown, cannot connect now: starting or shutting down),
 * 53300 (too many connections).
 */
function isTransientSqlState(code: unknown): boolean {
  return typeof code === "string" && (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-3]$/.test(code) || code === "53300");
}

interface ErrorFields {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  severity?: unknown;
  syscall?: unknown;
  errno?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
  errors?: unknown;
  cause?: unknown;
}

const fieldsOf = (err: unknown): ErrorFields | undefined => (err !== null && typeof err === "object" ? (err as ErrorFields) : undefined);

// P2028 (the transaction API) is transient in one case only: no connection came within maxWait, like
// P2024 for a single query. Through PgBouncer that is what a PostgreSQL restart looks like (it queues
// the transaction's BEGIN until a server is back). Its other cases (an expired or closed transaction)
// are the code's own.
const NO_TRANSACTION_IN_TIME = /Unable to start a transaction in the given time/;

/** The driver's error as Prisma's pg adapter maps it: a terminated session, a refused connect. */
function adapterCauseIsTransient(err: unknown): boolean {
  const cause = fieldsOf(err);
  return cause !== undefined && ((typeof cause.kind === "string" && ADAPTER_KINDS.has(cause.kind)) || isTransientSqlState(cause.originalCode ?? cause.code));
}

function fromPrisma(e: ErrorFields): boolean {
  if (e.code === "P2028" && typeof e.message === "string" && NO_TRANSACTION_IN_TIME.test(e.message)) return true;
  // An interactive transaction's own COMMIT or ROLLBACK throws the adapter's error as it is (a
  // PostgreSQL restart in a clean-clone run answered a signature 500 so).
  if (e.name === "DriverAdapterError") return adapterCauseIsTransient(e.cause);
  if (typeof e.name !== "string" || !e.name.startsWith("PrismaClient")) return false;
  if (typeof e.code === "string" && PRISMA_CODES.has(e.code)) return true;
  // A raw query's failure (P2010) carries the driver's error.
  return adapterCauseIsTransient(e.meta?.driverAdapterError?.cause);
}

function fromPg(e: ErrorFields): boolean {
  // pg's DatabaseError: the server's own answer, with a SQLSTATE and a severity.
  if (typeof e.severity === "string" && isTransientSqlState(e.code)) return true;
  if (typeof e.message === "string" && PG_MESSAGES.some((m) => m.test(e.message as string))) return true;
  // A bare socket error: what pg throws when a connect fails. (ioredis keeps its socket errors to its
  // 'error' listeners; its callers get the messages above.)
  return typeof e.code === "string" && SOCKET_CODES.has(e.code) && typeof e.syscall === "string" && typeof e.errno === "number";
}

function fromRedis(e: ErrorFields): boolean {
  if (e.name === "MaxRetriesPerRequestError") return true;
  return typeof e.message === "string" && REDIS_MESSAGES.some((m) => m.test(e.message as string));
}

/**
 * Which dependency an error says is unreachable (refused, dropped, restarting, out of connections),
 * or undefined for any other error. Only the error itself is read (and the driver error Prisma keeps,
 * and the attempts of an AggregateError): a domain error that wraps a socket error in its `cause`
 * (a mail server that refused, say) is about something else and is not mistaken for PostgreSQL.
 */
export function unavailableDependency(err: unknown): Dependency | undefined {
  const e = fieldsOf(err);
  if (!e) return undefined;
  // First: its cause is a socket error, which fromPg would take for PostgreSQL's.
  if (e.code === STORAGE_UNAVAILABLE_CODE) return "storage";
  if (fromRedis(e)) return "redis";
  if (fromPrisma(e) || fromPg(e)) return "postgres";
  // pg connecting to a name with several addresses (localhost: ::1 and 127.0.0.1) fails with all of them.
  if (Array.isArray(e.errors) && e.errors.length > 0) {
    const each = e.errors.map(unavailableDependency);
    if (each.every((d) => d !== undefined && d === each[0])) return each[0];
  }
  return undefined;
}

export const isDependencyUnavailable = (err: unknown): boolean => unavailableDependency(err) !== undefined;
