import { z } from "zod";

/*
 * Lists the way Penneo's clients page and sort them (docs/penneo-compatibility.md, "Lists"):
 *
 * - sdk-net: `page` (1-based) and `per_page`, each sent TWICE since 2023 (express hands them over as
 *   arrays), `x-paginate: true`, and it follows the `Link` header (its PaginationUtil: one header,
 *   `<url>; rel="next"` entries, every key once per URL, `page` and `per_page` in each, no raw comma).
 * - sdk-php: `limit` and `offset`; `per_page` may be PHP_INT_MAX (clamped, never refused).
 * - both: `sort=a,b&order=desc,asc`; Penneo's docs also `sort=-completed`; Penneo's own example an
 *   empty `sort=&order=`.
 *
 * A list without any paging parameter answers at most `maxPageSize` items and, when there are more,
 * a `Link` to the next page: an unpaged list of a million case files is never built.
 */

export type SortDirection = "asc" | "desc";
export interface SortKey<F extends string> {
  field: F;
  direction: SortDirection;
}

export interface ListWindow<F extends string> {
  offset: number;
  limit: number;
  /** The page the request named (or the one its offset falls on), for the Link header. */
  page: number;
  sort: SortKey<F>[];
}

/**
 * A repeated query key must repeat the same value (sdk-net sends page and per_page twice): the one
 * value, or the array as it came (which a string schema then refuses, naming the key).
 */
export const once = (value: unknown): unknown => {
  if (!Array.isArray(value)) return value;
  return value.every((v) => v === value[0]) ? value[0] : value;
};

/** A whole number from a query value; `max` keeps offsets computable (counts above it are clamped, positions refused). */
export const queryCount = (min: number, max?: number) =>
  z.preprocess(
    once,
    z
      .string()
      .regex(/^\d{1,30}$/, "must be a whole number")
      .transform(Number)
      .pipe(
        max === undefined ? z.number().min(min, `must be at least ${min}`) : z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
      ),
  );

const csv = (value: string): string[] =>
  value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

const PAGING_KEYS = ["page", "per_page", "limit", "offset", "sort", "order"] as const;
const MAX_POSITION = 1_000_000_000;

/**
 * The paging and sorting keys of a list's query schema: spread them beside the resource's filters
 * (`z.strictObject({ ...listKeys(["created", "title"]), title: ... })`), then read the window with
 * `listWindow`.
 */
export function listKeys<const F extends string>(sortable: readonly [F, ...F[]]) {
  return {
    page: queryCount(1, MAX_POSITION)
      .optional()
      .describe("1-based page, with per_page (sdk-net); the answer's Link header names the next, previous and first pages"),
    per_page: queryCount(1).optional().describe("Items per page; larger values are clamped to the maximum"),
    limit: queryCount(1).optional().describe("At most this many items (sdk-php); clamped to the maximum"),
    offset: queryCount(0, MAX_POSITION).optional().describe("Skip this many items (sdk-php)"),
    sort: z
      .preprocess(once, z.string().max(200))
      .transform((value, ctx) =>
        csv(value).map((raw) => {
          const descending = raw.startsWith("-");
          const field = descending ? raw.slice(1) : raw;
          if (!(sortable as readonly string[]).includes(field)) {
            ctx.addIssue({ code: "custom", message: `cannot sort by "${field}"; sortable: ${sortable.join(", ")}`, params: { code: "invalid_sort" } });
          }
          return { field: field as F, descending };
        }),
      )
      .optional()
      .describe(`Comma-separated fields, each optionally prefixed with - for descending: ${sortable.join(", ")}`),
    order: z
      .preprocess(once, z.string().max(200))
      .transform((value, ctx) =>
        csv(value).map((raw): SortDirection => {
          const direction = raw.toLowerCase();
          if (direction !== "asc" && direction !== "desc")
            ctx.addIssue({ code: "custom", message: `"${raw}" is neither asc nor desc`, params: { code: "invalid_order" } });
          return direction === "desc" ? "desc" : "asc";
        }),
      )
      .optional()
      .describe("Comma-separated asc or desc, one per sort field"),
  };
}

export interface ListKeys<F extends string> {
  page?: number;
  per_page?: number;
  limit?: number;
  offset?: number;
  sort?: { field: F; descending: boolean }[];
  order?: SortDirection[];
}

/** The window and order a list query asks for; `defaultSort` when it names none. */
export function listWindow<F extends string>(q: ListKeys<F>, defaultSort: SortKey<F>[], maxPageSize: number): ListWindow<F> {
  const clamp = (n: number) => Math.min(n, maxPageSize);
  let offset: number;
  let limit: number;
  let page: number;
  if (q.page !== undefined || q.per_page !== undefined) {
    limit = clamp(q.per_page ?? q.limit ?? maxPageSize);
    page = q.page ?? 1;
    offset = (page - 1) * limit;
  } else {
    limit = clamp(q.limit ?? maxPageSize);
    offset = q.offset ?? 0;
    page = Math.floor(offset / limit) + 1;
  }
  const sort = (q.sort ?? []).map(({ field, descending }, i): SortKey<F> => ({ field, direction: descending ? "desc" : (q.order?.[i] ?? "asc") }));
  return { offset, limit, page, sort: sort.length > 0 ? sort : defaultSort };
}

/**
 * The `Link` header of a page (RFC 8288, in the exact form sdk-net's PaginationUtil parses): the
 * request's own URL with every other query key once, and `page` and `per_page` set. No header for a
 * list that fits one page (sdk-net before 7.0.1 fails on an empty one).
 */
export function linkHeader(
  url: string,
  query: Readonly<Record<string, unknown>>,
  window: { page: number; limit: number },
  hasNext: boolean,
): string | undefined {
  if (!hasNext && window.page <= 1) return undefined;
  const kept = Object.entries(query)
    .filter(([key]) => !(PAGING_KEYS as readonly string[]).includes(key) || key === "sort" || key === "order")
    .map(([key, value]) => [key, String(once(value))] as const)
    .filter(([, value]) => value !== "");
  const at = (page: number) => {
    const params = [...kept, ["page", String(page)] as const, ["per_page", String(window.limit)] as const];
    return `<${url}?${params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")}>`;
  };
  const links = [`${at(1)}; rel="first"`];
  if (window.page > 1) links.push(`${at(window.page - 1)}; rel="prev"`);
  if (hasNext) links.push(`${at(window.page + 1)}; rel="next"`);
  return links.join(", ");
}
