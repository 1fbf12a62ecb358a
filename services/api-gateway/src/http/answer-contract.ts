import type { RequestHandler, Response } from "express";
import type { Logger } from "@esign/logger";
import type { RouteDoc } from "../openapi/route-doc";

/**
 * Checks every JSON answer against the contract its route declares (the same declarations the
 * OpenAPI document is built from): a success status the route does not declare, or a body that does
 * not parse with the declared schema for its status, is a contract violation. Statuses the route does
 * not declare that come from cross-cutting middleware (429 limits, 503 while a dependency is away,
 * 500) are not the route's to declare and pass.
 *
 * Installed outside production only. In development a violation is logged as an error and the answer
 * goes out; under NODE_ENV=test the answer is replaced by a 500 naming the violation, so every
 * end-to-end test that calls the route fails on drift between the code and its contract.
 */
export type ContractMode = "log" | "fail";

interface CompiledRoute {
  doc: RouteDoc;
  pattern: RegExp;
  /** Fewer parameters first: `/x/test` wins over `/x/{id}`. */
  params: number;
}

function compile(doc: RouteDoc): CompiledRoute {
  const parts = doc.path.split(/(\{[^}]+\})/).filter(Boolean);
  const source = parts.map((p) => (p.startsWith("{") ? "[^/]+" : p.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))).join("");
  return { doc, pattern: new RegExp(`^${source}/?$`), params: parts.filter((p) => p.startsWith("{")).length };
}

export interface ContractViolation {
  method: string;
  path: string;
  operationId: string;
  status: number;
  problem: string;
}

/** The violation, if any, of one answer: `undefined` when it keeps the contract (or is not the route's to declare). */
export function checkAnswer(doc: RouteDoc, status: number, body: unknown): string | undefined {
  const declared = doc.responses[status];
  if (!declared) return status >= 200 && status < 300 ? `status ${status} is not declared (declared: ${Object.keys(doc.responses).join(", ")})` : undefined;
  const schema = declared.content?.["application/json"];
  if (!schema) return declared.content ? `a JSON body where the contract declares ${Object.keys(declared.content).join(", ")}` : undefined;
  const parsed = schema.safeParse(body);
  if (parsed.success) return undefined;
  return parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
    .join("; ");
}

export function answerContract(routes: readonly RouteDoc[], mode: ContractMode, logger: Logger): RequestHandler {
  const compiled = routes.map(compile).sort((a, b) => a.params - b.params);
  return (req, res, next) => {
    const method = req.method.toLowerCase();
    const route = compiled.find((r) => r.doc.method === method && r.pattern.test(req.path));
    if (!route) return next();
    const send = res.json.bind(res) as Response["json"];
    res.json = ((body: unknown) => {
      const problem = checkAnswer(route.doc, res.statusCode, body);
      if (problem === undefined) return send(body);
      const violation: ContractViolation = { method: req.method, path: route.doc.path, operationId: route.doc.operationId, status: res.statusCode, problem };
      logger.error("answer does not keep its route's contract", { ...violation });
      if (mode === "log") return send(body);
      res.status(500);
      return send({
        error: "internal_error",
        message: `contract violation: ${req.method} ${route.doc.path} answered ${violation.status}: ${problem}`,
        statusCode: 500,
      });
    }) as Response["json"];
    next();
  };
}
