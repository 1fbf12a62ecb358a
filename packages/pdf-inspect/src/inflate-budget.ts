import { Inflate } from "pako";

/**
 * A bound on the bytes LibPDF may decompress for one document (issue 26, item 2): a 1 MB PDF whose
 * object streams inflate to 1 GiB cost the inspector 8.7 s of CPU and 2.1 GB. LibPDF decodes every
 * FlateDecode stream with pako, whose inflater hands its output on in chunks of at most 64 KiB
 * (`Inflate.prototype.onData`, used by `pako.inflate` too); counting there stops a bomb after one
 * chunk past the limit, whatever LibPDF does with the error (it catches some and tries again: every
 * later chunk throws at once, so that costs nothing).
 *
 * The hook is process-wide: one budget at a time, which is how the inspector child works (one
 * document at a time). This is the same pako LibPDF resolves: a dependency of this package at the
 * same version, so one module file both under tsx (CommonJS) and in the esbuild bundle (ESM).
 */

/** Thrown from inside pako when the document's budget is spent; reported as `too_costly`. */
export class InflateBudgetExceeded extends Error {}

interface Budget {
  max: number;
  spent: number;
}

let current: Budget | null = null;
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const original = Inflate.prototype.onData;
  Inflate.prototype.onData = function (this: Inflate, chunk: Uint8Array | string) {
    if (current) {
      current.spent += chunk.length;
      if (current.spent > current.max) throw new InflateBudgetExceeded(`its streams decompress to more than ${current.max} bytes`);
    }
    original.call(this, chunk);
  };
}

export interface Budgeted<T> {
  /** The work's own result, or what it threw. */
  outcome: { ok: true; value: T } | { ok: false; error: unknown };
  /** The budget was spent, whatever the work made of the error (LibPDF swallows some). */
  exceeded: boolean;
  inflatedBytes: number;
}

/** Runs `work` with at most `maxBytes` decompressed by pako; never throws. Not re-entrant. */
export async function withInflateBudget<T>(maxBytes: number, work: () => Promise<T>): Promise<Budgeted<T>> {
  install();
  const budget: Budget = { max: maxBytes, spent: 0 };
  current = budget;
  try {
    const value = await work();
    return { outcome: { ok: true, value }, exceeded: budget.spent > budget.max, inflatedBytes: budget.spent };
  } catch (error) {
    return { outcome: { ok: false, error }, exceeded: budget.spent > budget.max, inflatedBytes: budget.spent };
  } finally {
    if (current === budget) current = null;
  }
}
