import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { withLogContext, type Logger } from "@esign/logger";

const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

// Signing links and tracking ids are bearer credentials: they never reach a log line. The identity
// login's one callback (/sign/secure/callback) holds none and keeps its name.
function loggablePath(path: string): string {
  return path.replace(/^\/sign\/(?!secure\/callback$)[^/]+/, "/sign/:token").replace(/^\/t\/[^/]+/, "/t/:id");
}

/** Request id (taken from X-Request-Id when sane) on the response and in one access-log line. */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.header("x-request-id");
    const requestId = incoming && ID_PATTERN.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.http("request", { requestId, method: req.method, path: loggablePath(req.path), status: res.statusCode, ms: Math.round(ms * 10) / 10 });
    });
    // Lines logged while the request is handled carry its id (as far as the async context reaches).
    withLogContext({ requestId }, next);
  };
}

export function requestIdOf(res: Response): string {
  return typeof res.locals.requestId === "string" ? res.locals.requestId : "";
}
