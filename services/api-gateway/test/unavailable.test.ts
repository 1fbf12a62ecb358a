import type { AddressInfo } from "node:net";
import express from "express";
import { createPrisma } from "@esign/db";
import { createLogger } from "@esign/logger";
import { errorHandler } from "../src/http/error-handler";
import { RETRY_AFTER_SECONDS } from "../src/http/unavailable";
import { signingErrorHandler } from "../src/signing/negotiate";
import { freePort } from "../../../test/support/ports";

/*
 * PostgreSQL away is answered 503 service_unavailable with Retry-After, never 500: by the global
 * error handler (JSON) and by the signing routes' (a page for a signer's browser). The failing
 * query is real: Prisma against a port nobody listens on, as during a restart.
 */

describe("answers while PostgreSQL is away", () => {
  const logger = createLogger({ service: "unavailable-test", level: "error" });
  // The 500 case logs its error on purpose; keep it out of the test output.
  for (const t of logger.transports) t.silent = true;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const db = createPrisma(`postgresql://postgres@127.0.0.1:${await freePort()}/x`, 1);
    const app = express();
    app.get("/api/thing", async () => {
      await db.customer.findFirst();
    });
    const signing = express.Router();
    signing.get("/sign/:token", async () => {
      await db.$queryRaw`SELECT 1`;
    });
    signing.use(signingErrorHandler(logger));
    app.use(signing);
    app.get("/api/broken", () => {
      throw new Error("a bug");
    });
    app.use(errorHandler(logger));
    const server = await new Promise<import("node:http").Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.$disconnect();
    };
  });

  afterAll(() => close?.());

  it("is a 503 with Retry-After and the contract's error body, naming no host", async () => {
    const res = await fetch(`${url}/api/thing`);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ error: "service_unavailable", message: expect.any(String), statusCode: 503 });
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
  });

  it("is a page for a signer's browser, JSON for an API client", async () => {
    const page = await fetch(`${url}/sign/abc`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(await page.text()).toContain("Temporarily unavailable");
    const json = await fetch(`${url}/sign/abc`, { headers: { accept: "application/json" } });
    expect(json.status).toBe(503);
    expect(((await json.json()) as { error: string }).error).toBe("service_unavailable");
  });

  it("still answers 500 with an errorId for anything else", async () => {
    const res = await fetch(`${url}/api/broken`);
    expect(res.status).toBe(500);
    expect(res.headers.get("retry-after")).toBeNull();
    expect(((await res.json()) as { errorId?: string }).errorId).toEqual(expect.any(String));
  });
});
