/** Paging and order of a list (the API's `page`/`per_page`, `sort`/`order`). */
export interface PageQuery {
  /** 1-based. */
  page?: number;
  /** Items per page; the server clamps it to its maximum (LIST_MAX_PAGE_SIZE, default 1000). */
  perPage?: number;
  /** A sortable field of the list; `-field` for descending. */
  sort?: string;
  order?: "asc" | "desc";
}

/** `?key=value&...` of the parameters that are set ("" when none is), in the API's names. */
export function listQuery(filters: Record<string, string | number | undefined>, paging: PageQuery = {}): string {
  const params = new URLSearchParams();
  const all = { ...filters, page: paging.page, per_page: paging.perPage, sort: paging.sort, order: paging.order };
  for (const [key, value] of Object.entries(all)) if (value !== undefined) params.set(key, String(value));
  return params.size > 0 ? `?${params.toString()}` : "";
}
