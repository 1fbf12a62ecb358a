import type { AddressInfo } from "node:net";
import express, { Router, type ErrorRequestHandler } from "express";
import { z } from "zod";
import { AppError } from "@esign/errors";
import { createLogger } from "@esign/logger";
import { answerCheck, checkAnswer } from "../src/contract/answer-check";
import { ZId } from "../src/contract/common-schemas";
import { errors, json, PUBLIC, API_AUTH, route } from "../src/contract/route";
import { authenticator, serve } from "../src/contract/serve";

// The contract layer: `serve` registers a handler from its declaration, validates the request with
// the declared schemas and hands the handler parsed values; the answer check holds the handler's
// JSON to the declared answers (under NODE_ENV=test, a drift is a 500 every e2e test sees).
const ZThing = z.object({ id: z.int(), name: z.string() });
const THING = route({
  method: "get",
  path: "/things/{id}",
  operationId: "getThing",
  summary: "A thing",
  tags: ["Things"],
  security: PUBLIC,
  request: { params: z.object({ id: ZId }), query: z.object({ mode: z.enum(["plain", "drift", "created", "limited"]).default("plain") }) },
  responses: { 200: { description: "The thing", content: json(ZThing) }, ...errors({ 404: "No such thing" }) },
});
const THING_TEST = route({ ...THING, path: "/things/test", operationId: "testThing", request: undefined, responses: { 204: { description: "Done" } } });
const RENAME = route({
  method: "put",
  path: "/things/{id}/name",
  operationId: "renameThing",
  summary: "Rename a thing",
  tags: ["Things"],
  security: PUBLIC,
  request: {
    params: z.object({ id: ZId }),
    headers: z.object({ "X-Reason": z.string().min(3).optional() }),
    body: { schema: z.object({ name: z.string().min(1), tags: z.array(z.string()).max(2).default([]) }), mediaTypes: ["application/json"] },
  },
  responses: { 200: { description: "Renamed", content: json(ZThing) }, ...errors({ 400: "Invalid" }) },
});
const SECRET = route({ ...THING_TEST, path: "/secret", operationId: "secret", security: API_AUTH });

const errorBody: ErrorRequestHandler = (err, _req, res, _next) => {
  if (err instanceof AppError) return void res.status(err.statusCode).json(err.toBody());
  res.status(500).json({ error: "internal_error", message: String(err), statusCode: 500 });
};

async function start(mode: "log" | "fail", logged: string[]): Promise<{ url: string; close(): void }> {
  const logger = createLogger({ service: "contract-layer-test", level: "error" });
  logger.on("data", (entry: { message: string }) => logged.push(entry.message));
  const app = express();
  app.use(answerCheck(mode, logger));
  app.use(express.json());
  const router = Router();
  serve(router, THING_TEST, (_input, _req, res) => void res.status(204).end());
  serve(router, THING, ({ params, query }, _req, res) => {
    if (query.mode === "drift") return void res.json({ id: String(params.id) } as unknown as z.input<typeof ZThing>);
    if (query.mode === "created") return void res.status(201).json({ id: params.id, name: "created" });
    if (query.mode === "limited") return void res.status(429).json({ error: "too_many_requests", message: "slow down", statusCode: 429 });
    res.json({ id: params.id, name: `thing ${params.id}` });
  });
  serve(router, RENAME, ({ params, headers, body }, _req, res) => {
    res.json({ id: params.id, name: `${body.name} (${body.tags.length} tags, ${headers["X-Reason"] ?? "no reason"})` });
  });
  app.use(router);
  app.get("/elsewhere", (_req, res) => void res.json({ anything: true }));
  app.use(errorBody);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const put = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "PUT", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("the contract layer", () => {
  let s: { url: string; close(): void };
  const logged: string[] = [];
  beforeAll(async () => {
    s = await start("fail", logged);
  });
  afterAll(() => s.close());

  it("hands the handler the parsed, typed request: path parameters, query defaults, headers and body", async () => {
    const got = await fetch(`${s.url}/things/7`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ id: 7, name: "thing 7" });
    const renamed = await put(`${s.url}/things/7/name`, { name: "seven", tags: ["a"] }, { "x-reason": "typo" });
    expect(await renamed.json()).toEqual({ id: 7, name: "seven (1 tags, typo)" });
  });

  it("refuses a request that does not keep the contract with one 400 listing every failing field, before the handler", async () => {
    const bad = await put(`${s.url}/things/7/name`, { name: "", tags: ["a", "b", "c"] }, { "x-reason": "no" });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: string; message: string; errors: { path: string }[] };
    expect(body.error).toBe("validation_failed");
    expect(body.message).toBe("Invalid headers and request body: every failing field is listed");
    expect(body.errors.map((e) => e.path).sort()).toEqual(["X-Reason", "name", "tags"]);
    expect((await fetch(`${s.url}/things/7?mode=loud`)).status).toBe(400);
  });

  it("answers a path parameter that names no resource with the route's 404", async () => {
    for (const id of ["abc", "0", "-1", "99999999999"]) {
      const res = await fetch(`${s.url}/things/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "not_found", message: "No such thing", statusCode: 404 });
    }
    // No 404 declared: the parameter is reported like any other field.
    const res = await put(`${s.url}/things/abc/name`, { name: "x" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(["id"]);
  });

  it("refuses to serve a route that declares credentials without an authenticator", () => {
    expect(() => serve(Router(), SECRET, (_input, _req, res) => void res.status(204).end())).toThrow(
      "GET /secret declares credentials but is served without an authenticator",
    );
    const open = authenticator((_req, _res, next) => next());
    expect(() => serve(Router(), SECRET, open, (_input, _req, res) => void res.status(204).end())).not.toThrow();
  });

  it("names what an answer does not keep: the body against the status's schema, or an undeclared success status", () => {
    expect(checkAnswer(THING, 200, { id: 1, name: "one" })).toBeUndefined();
    expect(checkAnswer(THING, 200, { id: "1" })).toMatch(/id: .*expected number.*; name: /i);
    expect(checkAnswer(THING, 201, { id: 1, name: "one" })).toMatch(/status 201 is not declared \(declared: 200, 404\)/);
    expect(checkAnswer(THING, 404, { error: "not_found", message: "x", statusCode: 404 })).toBeUndefined();
    expect(checkAnswer(THING, 404, { oops: true })).toMatch(/error/);
    // A status the route does not declare, from cross-cutting middleware (limits, outages): not the route's.
    expect(checkAnswer(THING, 503, { error: "service_unavailable" })).toBeUndefined();
    expect(checkAnswer(THING_TEST, 204, { unexpected: true })).toBeUndefined();
  });

  it("under NODE_ENV=test turns a drifted answer into a 500 naming it, and passes the rest", async () => {
    logged.length = 0;
    const drifted = await fetch(`${s.url}/things/2?mode=drift`);
    expect(drifted.status).toBe(500);
    expect(((await drifted.json()) as { message: string }).message).toMatch(/contract violation: GET \/things\/\{id\} answered 200: id: /);
    expect((await fetch(`${s.url}/things/3?mode=created`)).status).toBe(500);
    expect((await fetch(`${s.url}/things/4?mode=limited`)).status).toBe(429);
    // The static path wins over the parameter: /things/test is its own operation.
    expect((await fetch(`${s.url}/things/test`)).status).toBe(204);
    // A path no contract covers is not checked (the route-coverage test keeps those from existing).
    expect((await fetch(`${s.url}/elsewhere`)).status).toBe(200);
    expect(logged.filter((m) => m === "answer does not keep its route's contract")).toHaveLength(2);
  });

  it("in development logs the violation and lets the answer out", async () => {
    const devLogged: string[] = [];
    const dev = await start("log", devLogged);
    try {
      const drifted = await fetch(`${dev.url}/things/2?mode=drift`);
      expect(drifted.status).toBe(200);
      expect(await drifted.json()).toEqual({ id: "2" });
      expect(devLogged).toEqual(["answer does not keep its route's contract"]);
    } finally {
      dev.close();
    }
  });
});
