/**
 * The messages of pg's Connection that the pipelined statements of this folder send themselves
 * (pg/lib/connection.js; its type declarations do not list them).
 */
export interface Wire {
  parse(msg: { text: string; name: string }): void;
  bind(msg: { portal: string; statement: string; values: unknown[] }): void;
  describe(msg: { type: "P" | "S"; name: string }): void;
  execute(msg: { portal: string; rows?: number }): void;
  sync(): void;
  /** Named statements whose Parse is on its way (pg's own bookkeeping, read by hasBeenParsed). */
  submittedNamedStatements: Record<string, string>;
}
