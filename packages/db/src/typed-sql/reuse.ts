import type { Compilable, CompiledQuery } from "kysely";
import { isPasteableText } from "./expressions";

/*
 * Reusing a statement's compiled text. Building and compiling a Kysely statement costs 20-400 us of
 * CPU per call, a fifth of the casefile-worker's CPU on the create path when every call did it
 * (bench/README.md, "Typed SQL"). Most statements' text depends only on the shape of their arguments
 * (how many rows, which optional parts are there), never on a value: every value is a bound
 * parameter. Such a statement is compiled once per shape, with each value replaced by a slot, and a
 * call binds its own values into the slots.
 *
 * Only statements declared so reuse their text (`reuse: "shape"`). Their build function may look at
 * the arguments' structure (the length of an array of rows, which fields are present) and must pass
 * every value (a string, a number, a boolean, null, a Date, an array of those) on to the builder
 * untouched: never test, transform or draw one. What guards that promise:
 * - the first call of each shape also compiles the statement directly with its real arguments and
 *   compares text and parameters; a difference stops reuse of that statement for good;
 * - under NODE_ENV=test every call is compared, and a difference throws (so the whole test suite
 *   checks every reused statement on real traffic).
 */

/** A value's place in the arguments: the value numbered `index` of the walk (collect, slottedOf). */
class Slot {
  constructor(readonly index: number) {}
}

const isLeafValue = (v: unknown): boolean => v === null || typeof v !== "object" || v instanceof Date || v instanceof Uint8Array;

/**
 * What each part of a call's arguments is to the walks below: the keys of each object (an undefined
 * field is left out of an insert, so it is structure too) and the length of each array of objects
 * are structure; everything else is a value, opaque to the build: a string, a number, a boolean,
 * null, a Date, and an array of such (ids, a text[] column, a column of an unnest).
 */
function partOf(value: unknown): "absent" | "list" | "record" | "value" {
  if (value === undefined) return "absent";
  // An empty array is structure: a build may test its length.
  if (Array.isArray(value)) return value.length === 0 || !value.every(isLeafValue) ? "list" : "value";
  return isLeafValue(value) ? "value" : "record";
}

/**
 * A call's shape key, with its values pushed in slot order. Every call makes it; the slotted copy
 * of the arguments (slottedOf) only a shape's first call needs: copying every row of a case file's
 * statement to throw it away was most of the walk's cost.
 */
function collect(value: unknown, values: unknown[]): string {
  switch (partOf(value)) {
    case "absent":
      return "u";
    case "list": {
      let key = `[${(value as unknown[]).length}`;
      for (const v of value as unknown[]) key += collect(v, values);
      return `${key}]`;
    }
    case "record": {
      let key = "{";
      const record = value as Record<string, unknown>;
      for (const k in record) if (Object.hasOwn(record, k)) key += `${k}:${collect(record[k], values)}`;
      return `${key}}`;
    }
    case "value":
      values.push(value);
      return "v";
  }
}

/** A call's values and its shape's key. */
function keyOf(args: unknown): { values: unknown[]; shape: string } {
  const values: unknown[] = [];
  return { shape: collect(args, values), values };
}

/** The arguments with every value replaced by its slot, numbered in the order collect pushes the values. */
function slottedOf(args: unknown): unknown {
  let next = 0;
  const slot = (value: unknown): unknown => {
    switch (partOf(value)) {
      case "absent":
        return undefined;
      case "list":
        return (value as unknown[]).map(slot);
      case "record": {
        const record = value as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const k in record) if (Object.hasOwn(record, k)) out[k] = slot(record[k]);
        return out;
      }
      case "value":
        return new Slot(next++);
    }
  };
  return slot(args);
}

/** How to produce one parameter from a call's values. */
type ParamSpec = { slot: number } | { list: ParamSpec[] } | { constant: unknown };

function specOf(param: unknown): ParamSpec {
  if (param instanceof Slot) return { slot: param.index };
  if (Array.isArray(param) && param.some((p) => p instanceof Slot || Array.isArray(p))) return { list: param.map(specOf) };
  return { constant: param };
}

function bind(spec: ParamSpec, values: readonly unknown[]): unknown {
  if ("slot" in spec) return values[spec.slot];
  if ("list" in spec) return spec.list.map((s) => bind(s, values));
  return spec.constant;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  return false;
}

/** Why a reused compile differs from a direct one, or undefined when they agree. */
function difference(direct: CompiledQuery<unknown>, reused: CompiledQuery<unknown>): string | undefined {
  if (direct.sql !== reused.sql) return "its text depends on a value";
  if (!same(direct.parameters, reused.parameters)) return "a parameter is not one of its arguments passed on untouched";
  return undefined;
}

interface Entry {
  compiled: CompiledQuery<unknown>;
  params: ParamSpec[];
}

/** Shapes kept per statement; beyond it the oldest is dropped (batches of many sizes). */
const MAX_SHAPES = 64;

/** A compile function that reuses the text per shape (see the top of this file). */
export function reusingCompile<A, O>(name: string, build: (args: A) => Compilable<O>, checkEveryCall: boolean): (args: A) => CompiledQuery<O> {
  const shapes = new Map<string, Entry>();
  let disabled = false;
  return (args: A) => {
    if (disabled) return build(args).compile();
    const { values, shape } = keyOf(args);
    let entry = shapes.get(shape);
    let direct: CompiledQuery<O> | undefined;
    if (!entry) {
      let compiled: CompiledQuery<unknown>;
      try {
        compiled = build(slottedOf(args) as A).compile();
      } catch (err) {
        // The build used a value (called a method of it): this statement is compiled per call.
        disabled = true;
        if (checkEveryCall) throw new Error(`SQL statement "${name}" is declared reuse: "shape" but its build uses a value: ${(err as Error).message}`);
        return build(args).compile();
      }
      entry = { compiled, params: compiled.parameters.map(specOf) };
      if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value as string);
      shapes.set(shape, entry);
      direct = build(args).compile();
    } else if (checkEveryCall) {
      direct = build(args).compile();
    }
    const reused = { ...entry.compiled, parameters: entry.params.map((p) => bind(p, values)) } as CompiledQuery<O>;
    if (direct) {
      const problem = difference(direct, reused);
      if (problem) {
        disabled = true;
        shapes.clear();
        if (checkEveryCall) throw new Error(`SQL statement "${name}" is declared reuse: "shape" but ${problem}`);
        return direct;
      }
    }
    return reused;
  };
}

/** A compile function that reuses the text for arguments seen before (statements of a few settings). */
export function memoizedCompile<A, O>(build: (args: A) => Compilable<O>): (args: A) => CompiledQuery<O> {
  const seen = new Map<string, CompiledQuery<O>>();
  return (args: A) => {
    const key = JSON.stringify(args);
    let compiled = seen.get(key);
    if (!compiled) {
      compiled = build(args).compile();
      if (seen.size >= MAX_SHAPES) seen.delete(seen.keys().next().value as string);
      seen.set(key, compiled);
    }
    return compiled;
  };
}

/*
 * Reusing the text of a statement whose values are pasted into it as literals (a transaction's
 * opening, which the simple query protocol sends without parameters: literalInt, literalText,
 * literalUuid). Compiling such a statement per call cost ~0.3 ms of the casefile-worker's CPU per
 * case file, as much as the round trip the opening saves (bench/README.md, issue 25). So it is
 * compiled once per shape with a marker in place of each value - a uuid-shaped string (it passes
 * every text and uuid check) or a large integer - and a call pastes its own values where the
 * markers were. As with "shape", the build must hand every value to a literal untouched. Only a string of the pasteable alphabet or a safe integer is ever pasted this way;
 * any other value is compiled directly, so the build's own checks decide (and throw). The first
 * call of each shape, and under NODE_ENV=test every call, is compared with a direct compile; a
 * difference stops the reuse of that statement for good (and throws under test).
 */

const textMarker = (i: number) => `00005107-0000-4000-8000-${String(i).padStart(12, "0")}`;
const intMarker = (i: number) => 987_650_000 + i;

/** The literal a value is pasted as, or undefined when this value must not be pasted by the template. */
function pastedLiteral(value: unknown): string | undefined {
  if (typeof value === "string") return isPasteableText(value) ? `'${value}'` : undefined;
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

interface Template {
  /** The compile with the markers (its query tree is kept as is: running a statement uses its text and parameters). */
  marked: CompiledQuery<unknown>;
  /** The text around the markers: pieces[0], value, pieces[1], value, ... */
  pieces: string[];
  /** The slot whose value goes after pieces[i]. */
  slots: number[];
}

/** The compiled text split at every marker's literal, or undefined when a marker is not found as exactly one pasted literal or went into a parameter. */
function templateOf(compiled: CompiledQuery<unknown>, markers: string[]): Template | undefined {
  if (compiled.parameters.length > 0) return undefined;
  const pieces: string[] = [];
  const slots: number[] = [];
  let rest = compiled.sql;
  for (;;) {
    let at = -1;
    let slot = -1;
    for (const [i, m] of markers.entries()) {
      const found = rest.indexOf(m);
      if (found >= 0 && (at < 0 || found < at)) [at, slot] = [found, i];
    }
    if (at < 0) break;
    pieces.push(rest.slice(0, at));
    slots.push(slot);
    rest = rest.slice(at + (markers[slot] as string).length);
  }
  pieces.push(rest);
  return pieces.length > 1 ? { marked: compiled, pieces, slots } : undefined;
}

/** A compile function that reuses the text of a statement of pasted literals per shape (see above). */
export function pastingCompile<A, O>(name: string, build: (args: A) => Compilable<O>, checkEveryCall: boolean): (args: A) => CompiledQuery<O> {
  const shapes = new Map<string, Template>();
  let disabled = false;
  return (args: A) => {
    if (disabled) return build(args).compile();
    const { values, shape } = keyOf(args);
    const literals = values.map(pastedLiteral);
    if (literals.some((l) => l === undefined)) return build(args).compile();
    let template = shapes.get(shape);
    let direct: CompiledQuery<O> | undefined;
    if (!template) {
      const markerValues = values.map((v, i) => (typeof v === "string" ? textMarker(i) : intMarker(i)));
      const markers = markerValues.map((m) => (typeof m === "string" ? `'${m}'` : String(m)));
      const marked = fill(slottedOf(args), markerValues) as A;
      const made = templateOf(build(marked).compile(), markers);
      direct = build(args).compile();
      if (!made) {
        disabled = true;
        if (checkEveryCall) throw new Error(`SQL statement "${name}" is declared reuse: "pasted" but its values are not all pasted literals`);
        return direct;
      }
      template = made;
      if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value as string);
      shapes.set(shape, template);
    } else if (checkEveryCall) {
      direct = build(args).compile();
    }
    const { pieces, slots } = template;
    let sql = pieces[0] as string;
    for (let i = 0; i < slots.length; i++) sql += (literals[slots[i] as number] as string) + (pieces[i + 1] as string);
    const pasted = { ...template.marked, sql, parameters: [] } as CompiledQuery<O>;
    if (direct && direct.sql !== sql) {
      disabled = true;
      shapes.clear();
      if (checkEveryCall) throw new Error(`SQL statement "${name}" is declared reuse: "pasted" but its text depends on a value beyond its pasted literals`);
      return direct;
    }
    return pasted;
  };
}

/** `slotted` (walk's output) with each slot replaced by its value. */
function fill(slotted: unknown, values: readonly unknown[]): unknown {
  if (slotted instanceof Slot) return values[slotted.index];
  if (Array.isArray(slotted)) return slotted.map((v) => fill(v, values));
  if (typeof slotted === "object" && slotted !== null && !isLeafValue(slotted)) {
    return Object.fromEntries(Object.entries(slotted).map(([k, v]) => [k, fill(v, values)]));
  }
  return slotted;
}
