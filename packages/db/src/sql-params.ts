/**
 * Positional parameters of a statement built in pieces (several CTEs written by different modules):
 * `add` keeps the value and answers its placeholder, so no piece has to know how many came before.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  /** `$n`, or `$n::cast` when a cast is given. */
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}
