import SwaggerParser from "@apidevtools/swagger-parser";
import express from "express";
import type { z } from "zod";
import { toOpenApi30 } from "../../services/api-gateway/src/openapi/json-schema";
import { listRoutes } from "../../services/api-gateway/src/openapi/list-routes";
import { compareRoutes } from "../../services/api-gateway/src/openapi/route-coverage";
import { ZTokenAnswer } from "../../services/api-gateway/src/auth/token-schemas";
import { ZCaseFile, ZCreateAnswer } from "../../services/api-gateway/src/casefiles/casefile-schemas";
import { ZErrorBody } from "../../services/api-gateway/src/contract/common-schemas";
import { ZJob } from "../../services/api-gateway/src/jobs/job-status-schemas";
import { ZSigningView } from "../../services/api-gateway/src/signing/signing-schemas";
import { ZHealth, ZReadiness } from "../../services/api-gateway/src/system/system-contracts";
import { ZDeliveryPage, ZEventIdAnswer, ZSubscription, ZSubscriptionList } from "../../services/api-gateway/src/webhooks/subscription-schemas";
import { closeTestDb, getJson, getToken, newCustomer, pollOnce, postCreate, waitForJob } from "../support/api";
import { startInProcessGateway } from "../support/in-process-gateway";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import type { ServiceProcess } from "../support/services";
import { subscriptionClient } from "../support/subscription-api";
import { startSystem, type System } from "../support/system";

interface Operation {
  requestBody?: { content: Record<string, { schema?: { $ref?: string }; encoding?: Record<string, { contentType?: string }> }> };
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  security?: Record<string, string[]>[];
  "x-development-only"?: boolean;
}

interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, Record<string, unknown>>; required?: string[] }>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}

const CREATE = "/send/api/v1/casefiles/20251022/create";

/** Every route of contract.md (and the signer delete of the service spec), written out by hand on purpose. */
const CONTRACT_ROUTES = [
  "POST /oauth/token",
  `POST ${CREATE}`,
  "POST /send/api/v1/queue/public/status",
  "GET /send/api/v1/casefiles/{id}",
  "GET /send/api/v1/casefiles/{id}/documents/{documentId}/file",
  "DELETE /send/api/v1/casefiles/{id}/signers/{signerId}",
  "GET /sign/{token}",
  "GET /sign/{token}/documents/{documentId}",
  "POST /sign/{token}/sign",
  "POST /sign/{token}/reject",
  "POST /webhook/api/v1/subscriptions",
  "GET /webhook/api/v1/subscriptions",
  "GET /webhook/api/v1/subscriptions/{id}",
  "PUT /webhook/api/v1/subscriptions/{id}",
  "DELETE /webhook/api/v1/subscriptions/{id}",
  "POST /webhook/api/v1/subscriptions/{id}/test",
  "GET /webhook/api/v1/subscriptions/{id}/deliveries",
  "POST /webhook/api/v1/subscriptions/{id}/deliveries/{eventId}/redeliver",
  "GET /healthz",
  "GET /readyz",
  "GET /openapi.json",
  "GET /docs",
];

const PRODUCTION_ENV = {
  NODE_ENV: "production",
  JWT_SECRET: "openapi-test-production-jwt-secret-0123456789",
  ENCRYPTION_KEY: "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100",
  WEBHOOK_ALLOW_PRIVATE: "false",
  METRICS_TOKEN: "openapi-test-metrics-token-0123",
};

let system: System;
let gateway: ServiceProcess;
let doc: Document;

const operationsOf = (d: Document) => Object.entries(d.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));

const operation = (method: string, path: string): Operation => {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
  return op;
};

/** The component a documented JSON answer points at. */
const documentedAnswer = (method: string, path: string, status: number) =>
  operation(method, path).responses[String(status)]?.content?.["application/json"]?.schema?.$ref?.replace("#/components/schemas/", "");

/** A real answer must have the status the document lists and parse with the zod schema behind the named component. */
function expectDocumented(answer: { status: number; body: unknown }, method: string, path: string, component: string, schema: z.ZodType) {
  expect(documentedAnswer(method, path, answer.status)).toBe(component);
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success)
    throw new Error(`${method.toUpperCase()} ${path} ${answer.status} does not match ${component}: ${parsed.error.message}\n${JSON.stringify(answer.body)}`);
}

beforeAll(async () => {
  system = await startSystem(["casefile-worker"], {}, { JOB_POLL_LIMIT_PER_MINUTE: "0" });
  gateway = system.gateway;
  const res = await fetch(`${gateway.url}/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Document;
});

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.0 document (swagger-parser), served as JSON and the same on every request", async () => {
    expect(doc.openapi).toBe("3.0.3");
    const again = await fetch(`${gateway.url}/openapi.json`);
    expect(again.headers.get("content-type")).toMatch(/^application\/json/);
    const raw = await again.text();
    expect(JSON.parse(raw)).toEqual(doc);
    // validate() dereferences in place: it gets its own parse of exactly what the gateway served.
    await expect(SwaggerParser.validate(JSON.parse(raw))).resolves.toMatchObject({ openapi: "3.0.3" });
  });

  it("lists every route of the contract", () => {
    const documented = new Set(operationsOf(doc));
    expect(CONTRACT_ROUTES.filter((r) => !documented.has(r))).toEqual([]);
  });

  it("documents the create endpoint's multipart parts: data (JSON of CaseFileCreateData) and files (binary PDFs)", () => {
    const op = operation("post", CREATE);
    const multipart = op.requestBody?.content["multipart/form-data"];
    expect(multipart?.schema?.$ref).toBe("#/components/schemas/CaseFileCreateRequest");
    expect(multipart?.encoding).toEqual({ data: { contentType: "application/json" }, files: { contentType: "application/pdf" } });
    const request = doc.components.schemas.CaseFileCreateRequest;
    expect(request?.required).toEqual(["data", "files"]);
    expect(request?.properties?.data).toMatchObject({ allOf: [{ $ref: "#/components/schemas/CaseFileCreateData" }] });
    expect(request?.properties?.files).toMatchObject({ type: "array", minItems: 1, items: { type: "string", format: "binary" } });
    // The payload schema is zod's CaseFileCreateData: strict objects, defaults and enums included.
    const data = doc.components.schemas.CaseFileCreateData;
    expect(data?.required).toEqual(["caseFile"]);
    expect(data?.properties?.caseFile).toMatchObject({ additionalProperties: false, required: ["title", "signers", "documents"] });
    // Every authenticated route takes every scheme Penneo's published clients use, and the web application's session.
    expect(op.security).toEqual([{ XAuthToken: [] }, { BearerAuth: [] }, { OAuth2ClientCredentials: [] }, { Wsse: [] }, { SessionCookie: [] }]);
  });

  it("declares the security schemes: X-Auth-Token, bearer, OAuth2 client credentials at /oauth/token, WSSE, the session cookie", () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.XAuthToken).toMatchObject({ type: "apiKey", in: "header", name: "X-Auth-Token" });
    expect(schemes.BearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.OAuth2ClientCredentials).toMatchObject({
      type: "oauth2",
      flows: { clientCredentials: { tokenUrl: `${gateway.url}/oauth/token`, scopes: {} } },
    });
    expect(schemes.Wsse).toMatchObject({ type: "apiKey", in: "header", name: "X-WSSE" });
    expect(schemes.SessionCookie).toMatchObject({ type: "apiKey", in: "cookie", name: "esign_session" });
    expect(operation("get", "/webhook/api/v1/subscriptions").security).toEqual([
      { XAuthToken: [] },
      { BearerAuth: [] },
      { OAuth2ClientCredentials: [] },
      { Wsse: [] },
      { SessionCookie: [] },
    ]);
    expect(operation("get", "/api/v3/casefiles/{id}").security).toEqual([
      { XAuthToken: [] },
      { BearerAuth: [] },
      { OAuth2ClientCredentials: [] },
      { Wsse: [] },
      { SessionCookie: [] },
    ]);
    expect(operation("get", "/api/v3/session").security).toEqual([{ SessionCookie: [] }]);
    expect(operation("post", "/api/v3/session").security).toEqual([]);
    expect(operation("post", "/send/api/v1/queue/public/status").security).toEqual([]);
  });
});

describe("JSON Schema to OpenAPI 3.0 fix-ups", () => {
  it("rewrites what 3.0 cannot express and refuses what it cannot rewrite", () => {
    expect(toOpenApi30({ $schema: "x", const: "a" })).toEqual({ enum: ["a"] });
    expect(toOpenApi30({ type: ["string", "null"], enum: ["a"] })).toEqual({ type: "string", nullable: true, enum: ["a", null] });
    expect(toOpenApi30({ type: "number", exclusiveMinimum: 0 })).toEqual({ type: "number", minimum: 0, exclusiveMinimum: true });
    expect(toOpenApi30({ $ref: "#/components/schemas/A", description: "d" })).toEqual({ allOf: [{ $ref: "#/components/schemas/A" }], description: "d" });
    expect(toOpenApi30({ properties: { a: { examples: [1, 2] } } })).toEqual({ properties: { a: { example: 1 } } });
    expect(() => toOpenApi30({ type: "array", prefixItems: [] })).toThrow(/prefixItems/);
  });
});

describe("route coverage: the document lists exactly the routes the express app registers", () => {
  it.each([
    ["development", {}, true],
    ["production", PRODUCTION_ENV, false],
  ] as const)("%s", async (_mode, env, development) => {
    const gw = await startInProcessGateway(env);
    try {
      const served = (await (await fetch(`${gw.url}/openapi.json`)).json()) as Document;
      const surface = listRoutes(gw.app);
      expect(compareRoutes(served, surface)).toEqual({ undocumented: [], unrouted: [], undocumentedMounts: [] });
      // The simulator is mounted, and documented as development only, exactly outside production.
      expect(served.paths["/idp-simulator/authorize"]?.get?.["x-development-only"]).toBe(development ? true : undefined);
      expect(surface.routes.some((r) => r.path === "/idp-simulator/authorize")).toBe(development);
      expect(surface.routes.length).toBeGreaterThan(25);
    } finally {
      await gw.close();
    }
  });

  it("fails for a route the document lacks, an operation no route answers, and an undocumented mount", async () => {
    const app = express();
    const router = express.Router();
    router.get("/documented/:id", (_req, res) => void res.end());
    router.post("/forgotten", (_req, res) => void res.end());
    router.use("/documented", (_req, _res, next) => next());
    app.use(router);
    const nested = express.Router();
    nested.delete("/items/:itemId", (_req, res) => void res.end());
    app.use("/v2", nested);
    const board = express();
    board.get("/api/queues", (_req, res) => void res.end());
    app.use("/admin/board", board);
    app.use("/raw-handler", (_req, res) => void res.end());

    const surface = listRoutes(app);
    expect(surface.routes).toEqual([
      { method: "get", path: "/documented/{id}" },
      { method: "post", path: "/forgotten" },
      { method: "delete", path: "/v2/items/{itemId}" },
    ]);
    const documented = { paths: { "/documented/{id}": { get: {}, put: {} }, "/v2/items/{itemId}": { delete: {} }, "/admin/board": { get: {} } } };
    expect(compareRoutes(documented, surface)).toEqual({
      undocumented: ["POST /forgotten"],
      unrouted: ["PUT /documented/{id}"],
      undocumentedMounts: ["/raw-handler"],
    });
  });
});

describe("real answers match their documented schemas", () => {
  it("token, create (200), job status, case file, signing page, errors", async () => {
    const creds = await newCustomer();
    const tokenAnswer = await fetch(`${gateway.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret }),
    });
    expectDocumented({ status: tokenAnswer.status, body: await tokenAnswer.json() }, "post", "/oauth/token", "TokenAnswer", ZTokenAnswer);
    const token = await getToken(gateway.url, creds);

    const files = [
      { name: "contract.pdf", content: await makePdf("Contract") },
      { name: "appendix.pdf", content: await makePdf("Appendix") },
    ];
    const created = await postCreate(gateway.url, token, validCaseFile(), files);
    expectDocumented(created, "post", CREATE, "CreateAnswer", ZCreateAnswer);
    const job = created.body.jobs[0]!;

    const firstPoll = await pollOnce(gateway.url, job.uuid, job.payloadHash);
    expectDocumented(firstPoll, "post", "/send/api/v1/queue/public/status", "Job", ZJob);
    const done = await waitForJob(gateway.url, job.uuid, job.payloadHash);
    expect(done.jobStatus).toBe("completed");
    expectDocumented({ status: 200, body: done }, "post", "/send/api/v1/queue/public/status", "Job", ZJob);

    const caseFile = await getJson(`${gateway.url}/send/api/v1/casefiles/${done.result!.data.caseFile.id}`, { "X-Auth-Token": token });
    expectDocumented(caseFile, "get", "/send/api/v1/casefiles/{id}", "CaseFile", ZCaseFile);

    const link = done.result!.data.signingLinks[0]!.signingLink;
    const page = await getJson(link, { Accept: "application/json" });
    expectDocumented(page, "get", "/sign/{token}", "SigningView", ZSigningView);

    const invalid = await postCreate(gateway.url, token, { caseFile: { title: "" } }, []);
    expectDocumented(invalid, "post", CREATE, "ErrorBody", ZErrorBody);
    expect(invalid.body.errors?.length).toBeGreaterThan(1);
    const unauthorized = await getJson(`${gateway.url}/send/api/v1/casefiles/1`);
    expectDocumented(unauthorized, "get", "/send/api/v1/casefiles/{id}", "ErrorBody", ZErrorBody);
    const unknownJob = await pollOnce(gateway.url, "00000000-0000-4000-8000-000000000000", "0".repeat(64));
    expectDocumented(unknownJob, "post", "/send/api/v1/queue/public/status", "ErrorBody", ZErrorBody);
  });

  it("the subscription API", async () => {
    const api = subscriptionClient(gateway.url, await getToken(gateway.url, await newCustomer()));
    const path = "/webhook/api/v1/subscriptions";
    const created = await api.create({ eventTypes: ["sign.casefile.completed"], endpoint: "http://127.0.0.1:9/hook" });
    expectDocumented(created, "post", path, "Subscription", ZSubscription);
    expectDocumented(await api.list(), "get", path, "SubscriptionList", ZSubscriptionList);
    expectDocumented(await api.get(created.body.id), "get", `${path}/{id}`, "Subscription", ZSubscription);
    expectDocumented(await api.update(created.body.id, { isActive: true }), "put", `${path}/{id}`, "Subscription", ZSubscription);
    expectDocumented(await api.test(created.body.id), "post", `${path}/{id}/test`, "EventIdAnswer", ZEventIdAnswer);
    expectDocumented(await api.deliveries(created.body.id), "get", `${path}/{id}/deliveries`, "DeliveryPage", ZDeliveryPage);
    expectDocumented(await api.create({ eventTypes: ["no.such.event"], endpoint: "ftp://x" }), "post", path, "ErrorBody", ZErrorBody);
    const removed = await api.remove(created.body.id);
    expect(removed.status).toBe(204);
    expect(operation("delete", `${path}/{id}`).responses["204"]).toBeDefined();
  });

  it("health and readiness", async () => {
    expectDocumented(await getJson(`${gateway.url}/healthz`), "get", "/healthz", "Health", ZHealth);
    expectDocumented(await getJson(`${gateway.url}/readyz`), "get", "/readyz", "Readiness", ZReadiness);
  });
});
