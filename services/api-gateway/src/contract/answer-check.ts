import type { RequestHandler, Response } from "express";
import type { Logger } from "@esign/logger";
import type { RouteContract } from "./route";
import { contractOf } from "./serve";

/**
 * Checks every JSON answer against the contract of the route that answers it (serve.ts leaves the
 * contract on the response): a success status the route does not declare, or a body that does not
 * parse with the declared schema for its status, is a contract violation. Statuses the route does
 * not declare that come from cross-cutting middleware (429 limits, 503 while a dependency is away,
 * 500) are not the route's to declare and pass.
 *
 * Installed outside production only. In development a violation is logged as an error and the answer
 * goes out; under NODE_ENV=test the answer is replaced by a 500 naming the violation, so every
 * end-to-end test that calls a route fails on drift between the code and its contract.
 */
export type ContractMode = "log" | "fail";

export interface ContractViolation {
  method: string;
  path: string;
  operationId: string;
  status: number;
  problem: string;
}

/** The violation, if any, of one answer: `undefined` when it keeps the contract (or is not the route's to declare). */
export function checkAnswer(contract: RouteContract, status: number, body: unknown): string | undefined {
  const declared = contract.responses[status];
  if (!declared)
    return status >= 200 && status < 300 ? `status ${status} is not declared (declared: ${Object.keys(contract.responses).join(", ")})` : undefined;
  const schema = declared.content?.["application/json"];
  if (!schema) return declared.content ? `a JSON body where the contract declares ${Object.keys(declared.content).join(", ")}` : undefined;
  const parsed = schema.safeParse(body);
  if (parsed.success) return undefined;
  return parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
    .join("; ");
}

export function answerCheck(mode: ContractMode, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const send = res.json.bind(res) as Response["json"];
    res.json = ((body: unknown) => {
      const contract = contractOf(res);
      const problem = contract && checkAnswer(contract, res.statusCode, body);
      if (!contract || problem === undefined) return send(body);
      const violation: ContractViolation = { method: req.method, path: contract.path, operationId: contract.operationId, status: res.statusCode, problem };
      logger.error("answer does not keep its route's contract", { ...violation });
      if (mode === "log") return send(body);
      res.status(500);
      return send({
        error: "internal_error",
        message: `contract violation: ${req.method} ${contract.path} answered ${violation.status}: ${problem}`,
        statusCode: 500,
      });
    }) as Response["json"];
    next();
  };
}
