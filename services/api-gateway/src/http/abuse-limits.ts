import type { Request } from "express";
import type { GatewayContext } from "../context";
import { FailureBudget } from "./failure-budget";
import { RateLimit } from "./rate-limit";

/** Every abuse limit of the gateway, built once per gateway from its settings (see packages/config). */
export interface AbuseLimits {
  /** Failed authentications (token grants, WSSE), reserved before the work: per client and address, per client, per address. */
  tokenFailuresByClientAddress: FailureBudget;
  tokenFailuresByClient: FailureBudget;
  tokenFailuresByAddress: FailureBudget;
  tokenRequestsByAddress: RateLimit;
  signingFailuresByAddress: RateLimit;
  signingRequestsByAddress: RateLimit;
  createsByCustomer: RateLimit;
  /** Uploads refused as too costly to inspect, per customer: past it, its creates stop before the upload is read. */
  costlyPdfsByCustomer: RateLimit;
  pollsByCustomer: RateLimit;
  pollsByJob: RateLimit;
  pollsByAddress: RateLimit;
  pollFailuresByAddress: RateLimit;
  verifyByAddress: RateLimit;
  signInFailuresByAddress: RateLimit;
  /** Keyed by email and address together: a lockout of one account from one place. */
  signInFailuresByEmail: RateLimit;
}

const built = new WeakMap<GatewayContext, AbuseLimits>();

export function abuseLimits(ctx: GatewayContext): AbuseLimits {
  let limits = built.get(ctx);
  if (limits) return limits;
  const c = ctx.config;
  // Scaled up (never down) by RATE_LIMIT_SCALE; the per-job poll limit is Penneo's and stays exact.
  const perMinute = (name: string, points: number, scaled = true) =>
    new RateLimit(ctx.redis, c.QUEUE_PREFIX, { name, points: scaled ? Math.ceil(points * c.RATE_LIMIT_SCALE) : points, windowSeconds: 60 }, ctx.logger);
  const failureBudget = (name: string, points: number) =>
    new FailureBudget(ctx.redis, c.QUEUE_PREFIX, { name, points: Math.ceil(points * c.RATE_LIMIT_SCALE), windowSeconds: 60 }, ctx.logger);
  limits = {
    // Counted in Redis across replicas; in each replica's memory while Redis is away (rate-limit.ts).
    tokenFailuresByClientAddress: failureBudget("token-failures-client-address", c.TOKEN_FAILURES_PER_CLIENT_ADDRESS_PER_MINUTE),
    tokenFailuresByClient: failureBudget("token-failures-client", c.TOKEN_FAILURES_PER_CLIENT_PER_MINUTE),
    tokenFailuresByAddress: failureBudget("token-failures-address", c.TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE),
    tokenRequestsByAddress: perMinute("token-requests-address", c.TOKEN_REQUESTS_PER_ADDRESS_PER_MINUTE),
    signingFailuresByAddress: perMinute("signing-failures-address", c.SIGNING_FAILURES_PER_ADDRESS_PER_MINUTE),
    signingRequestsByAddress: perMinute("signing-requests-address", c.SIGNING_REQUESTS_PER_ADDRESS_PER_MINUTE),
    createsByCustomer: perMinute("creates-customer", c.CREATES_PER_CUSTOMER_PER_MINUTE),
    costlyPdfsByCustomer: perMinute("costly-pdfs-customer", c.COSTLY_PDFS_PER_CUSTOMER_PER_MINUTE),
    pollsByCustomer: perMinute("job-polls-customer", c.JOB_POLLS_PER_CUSTOMER_PER_MINUTE),
    pollsByJob: perMinute("job-poll", c.JOB_POLL_LIMIT_PER_MINUTE, false),
    // The job-status endpoint needs no login: each lookup is a database query (issue 26, item 7).
    pollsByAddress: perMinute("job-polls-address", c.JOB_POLLS_PER_ADDRESS_PER_MINUTE),
    pollFailuresByAddress: perMinute("job-poll-failures-address", c.JOB_POLL_FAILURES_PER_ADDRESS_PER_MINUTE),
    // Unauthenticated and memory-bound (the PDF is read whole).
    verifyByAddress: perMinute("verify-address", c.VERIFY_REQUESTS_PER_ADDRESS_PER_MINUTE),
    signInFailuresByAddress: perMinute("signin-failures-address", c.SIGNIN_FAILURES_PER_ADDRESS_PER_MINUTE),
    signInFailuresByEmail: new RateLimit(
      ctx.redis,
      c.QUEUE_PREFIX,
      { name: "signin-failures-email", points: c.SIGNIN_FAILURES_PER_EMAIL, windowSeconds: c.SIGNIN_LOCKOUT_SECONDS },
      ctx.logger,
    ),
  };
  built.set(ctx, limits);
  return limits;
}

/** The client's address as counted by the address limits (TRUST_PROXY decides whose it is). */
export const addressOf = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? "unknown";
