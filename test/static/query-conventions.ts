import ts from "typescript";

/*
 * Which of the two query conventions (packages/db/README.md, "Two ways to query") a source file
 * uses, read from its syntax tree (so a call named in a comment or a string does not count):
 * - Prisma's model API: a call of a model delegate's method, `<anything>.<delegate>.<method>(...)`,
 *   the delegates being the models of prisma/schema.prisma (`model CaseFile` -> `caseFile`);
 * - typed SQL: a call of `run`, `runOne` or `runCompiled` (a named statement run on a connection).
 * A transaction is neither: `$transaction`, `withSqlTransaction` and `sqlPool` only hand out a
 * connection, and functions of other files (`emitEvent`, a lock helper) are theirs, not the caller's.
 */

/** The methods of a Prisma model delegate (Prisma 7) that issue a query. */
const DELEGATE_METHODS = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "create",
  "createMany",
  "createManyAndReturn",
  "update",
  "updateMany",
  "updateManyAndReturn",
  "upsert",
  "delete",
  "deleteMany",
  "count",
  "aggregate",
  "groupBy",
]);

const TYPED_SQL_RUNS = new Set(["run", "runOne", "runCompiled"]);

/** The model delegates of a Prisma schema: each model's name with its first letter in lower case. */
export function modelDelegates(schema: string): string[] {
  return [...schema.matchAll(/^model\s+(\w+)\s*\{/gm)].map(([, name]) => name!.charAt(0).toLowerCase() + name!.slice(1));
}

export interface QueryUse {
  /** Model API calls, as `delegate.method` with their line. */
  modelApi: string[];
  /** Typed-SQL runs, as the function called with its line. */
  typedSql: string[];
}

export function queryUse(fileName: string, source: string, delegates: readonly string[]): QueryUse {
  const known = new Set(delegates);
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const use: QueryUse = { modelApi: [], typedSql: [] };
  const lineOf = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee) && TYPED_SQL_RUNS.has(callee.text)) use.typedSql.push(`${callee.text}() line ${lineOf(node)}`);
      if (
        ts.isPropertyAccessExpression(callee) &&
        DELEGATE_METHODS.has(callee.name.text) &&
        ts.isPropertyAccessExpression(callee.expression) &&
        known.has(callee.expression.name.text)
      ) {
        use.modelApi.push(`${callee.expression.name.text}.${callee.name.text}() line ${lineOf(node)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return use;
}

/** Why a file breaks "one convention per file", or undefined when it keeps it. */
export function mixedConventions(fileName: string, source: string, delegates: readonly string[]): string | undefined {
  const use = queryUse(fileName, source, delegates);
  if (use.modelApi.length === 0 || use.typedSql.length === 0) return undefined;
  return `Prisma model API (${use.modelApi.join(", ")}) and typed SQL (${use.typedSql.join(", ")})`;
}

/**
 * The statements of a `*.sql.ts` file (`const x = defineStatement("name", ...)`) whose doc comment
 * does not say what they lock: each must have a `Locks:` line (bullmq's scripts document their
 * keys and arguments the same way, above the script).
 */
export function statementsWithoutLocksHeader(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const missing: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== "defineStatement") continue;
      const name = init.arguments[0] && ts.isStringLiteral(init.arguments[0]) ? init.arguments[0].text : declaration.name.getText(file);
      const docs = ts.getJSDocCommentsAndTags(declaration).map((d) => d.getText(file));
      if (!docs.some((doc) => /^\s*\*\s*Locks:\s*\S/m.test(doc))) missing.push(name);
    }
  }
  return missing;
}
