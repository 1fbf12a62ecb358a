import type { AddressInfo } from "node:net";
import express from "express";
import { z } from "zod";
import { createLogger } from "@esign/logger";
import { answerContract, checkAnswer } from "../src/http/answer-contract";
import { errors, json, PUBLIC, type RouteDoc } from "../src/openapi/route-doc";

// A route's declared answers are what the OpenAPI document says and what the answer-contract check
// holds its handler to outside production (under NODE_ENV=test, a drift is a 500 every e2e test sees).
const ZThing = z.object({ id: z.int(), name: z.string() });
const THING: RouteDoc = {
  method: "get",
  path: "/things/{id}",
  operationId: "getThing",
  summary: "A thing",
  tags: ["Things"],
  security: PUBLIC,
  responses: { 200: { description: "The thing", content: json(ZThing) }, ...errors({ 404: "No such thing" }) },
};
const THING_TEST: RouteDoc = { ...THING, path: "/things/test", operationId: "testThing", responses: { 204: { description: "Done" } } };

async function serve(mode: "log" | "fail", logged: string[]): Promise<{ url: string; close(): void }> {
  const logger = createLogger({ service: "answer-contract-test", level: "error" });
  logger.on("data", (entry: { message: string }) => logged.push(entry.message));
  const app = express();
  app.use(answerContract([THING, THING_TEST], mode, logger));
  app.get("/things/test", (_req, res) => void res.status(204).end());
  app.get("/things/:id", (req, res) => {
    const id = req.params.id;
    if (id === "1") return void res.json({ id: 1, name: "one" });
    if (id === "2") return void res.json({ id: "2" });
    if (id === "3") return void res.status(201).json({ id: 3, name: "three" });
    if (id === "4") return void res.status(429).json({ error: "too_many_requests", message: "slow down", statusCode: 429 });
    return void res.status(404).json({ error: "not_found", message: "No such thing", statusCode: 404 });
  });
  app.get("/elsewhere", (_req, res) => void res.json({ anything: true }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe("answers checked against their route's contract", () => {
  it("names what does not match: the body against the status's schema, or an undeclared success status", () => {
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
    const logged: string[] = [];
    const s = await serve("fail", logged);
    try {
      expect((await fetch(`${s.url}/things/1`)).status).toBe(200);
      const drifted = await fetch(`${s.url}/things/2`);
      expect(drifted.status).toBe(500);
      expect(((await drifted.json()) as { message: string }).message).toMatch(/contract violation: GET \/things\/\{id\} answered 200: id: /);
      expect((await fetch(`${s.url}/things/3`)).status).toBe(500);
      expect((await fetch(`${s.url}/things/4`)).status).toBe(429);
      expect((await fetch(`${s.url}/things/9`)).status).toBe(404);
      // The static path wins over the parameter: /things/test is its own operation.
      expect((await fetch(`${s.url}/things/test`)).status).toBe(204);
      // A path no contract covers is not checked (the route-coverage test keeps those from existing).
      expect((await fetch(`${s.url}/elsewhere`)).status).toBe(200);
      expect(logged.filter((m) => m === "answer does not keep its route's contract")).toHaveLength(2);
    } finally {
      s.close();
    }
  });

  it("in development logs the violation and lets the answer out", async () => {
    const logged: string[] = [];
    const s = await serve("log", logged);
    try {
      const drifted = await fetch(`${s.url}/things/2`);
      expect(drifted.status).toBe(200);
      expect(await drifted.json()).toEqual({ id: "2" });
      expect(logged).toEqual(["answer does not keep its route's contract"]);
    } finally {
      s.close();
    }
  });
});
