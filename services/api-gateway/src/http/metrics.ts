import type { NextFunction, Request, Response } from "express";
import { counter, histogram } from "@esign/runtime";

// Uploads of many MB over slow links are why the buckets reach minutes.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const labelNames = ["method", "route", "status"] as const;

/** A request that matched no route: its path may hold anything, so it is never a label. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * The route TEMPLATE a request was served by (`/sign/:token`, `/send/api/v1/casefiles/:id`): raw
 * paths carry signing tokens and ids, which are credentials or unbounded label values. A mounted
 * router or app (the queue dashboard) prefixes its mount path; a middleware that answered without
 * a route (static files) reports its mount path with `/*`.
 */
export function routeTemplate(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  const base = req.baseUrl ?? "";
  if (route && typeof route.path === "string") return `${base}${route.path}` || "/";
  return base ? `${base}/*` : UNMATCHED_ROUTE;
}

/** Request counter and latency histogram by method, route template and status. */
export function httpMetrics() {
  const requests = counter({ name: "esign_http_requests_total", help: "HTTP requests answered, by method, route template and status", labelNames });
  const duration = histogram({
    name: "esign_http_request_duration_seconds",
    help: "Time to answer an HTTP request (to the last byte written), by method, route template and status",
    labelNames,
    buckets: DURATION_BUCKETS,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    // When the request arrived, for stage timings measured from it (casefiles/create-stages.ts).
    res.locals.receivedAt = performance.now();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      // A client that went away before the answer was complete: nginx's 499.
      const status = res.writableFinished ? String(res.statusCode) : "499";
      const labels = { method: req.method, route: routeTemplate(req), status };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once("finish", record);
    res.once("close", record);
    next();
  };
}
