/**
 * A failure the developer can fix: `message` says what is wrong, `hint` lists the exact commands to
 * run. up.ts prints both and exits 1 instead of dumping a stack trace.
 */
export class UpError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = "UpError";
  }
}
