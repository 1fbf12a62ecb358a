import type { Request, Response } from "express";
import { z } from "zod";
import { linkHeader } from "./list-query";

/*
 * Answering one page of a list (list-query.ts reads the window): the rows are read with one more
 * than the page holds, and that extra row only tells that a next page exists, which the `Link`
 * header then names (sdk-net follows it; sdk-php pages on until a short page).
 */

/**
 * The page of `rows` (read with `limit + 1`), with the `Link` header set when there is more than one
 * page. The Link's entries are absolute, on the gateway's public address (PUBLIC_BASE_URL: right
 * behind a TLS proxy too), and keep the request's filters and sort (its query, which the route's
 * strict schema has already checked) so a follower stays on them.
 */
export function listPage<T>(req: Request, res: Response, publicBaseUrl: string, window: { page: number; limit: number }, rows: readonly T[]): T[] {
  const hasNext = rows.length > window.limit;
  const link = linkHeader(`${publicBaseUrl}${req.originalUrl.split("?")[0]}`, req.query as Record<string, unknown>, window, hasNext);
  if (link !== undefined) res.setHeader("Link", link);
  return rows.slice(0, window.limit);
}

/**
 * A LIKE / ILIKE pattern matching text that contains `text` literally: its `%`, `_` and `\` are
 * escaped (backslash is PostgreSQL's default LIKE escape).
 */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/** The `Link` header a list's 200 declares (its contract's `headers`). */
export const LIST_LINK_HEADER = {
  Link: {
    description: 'The first, previous and next pages (`<url>; rel="next"`, each with page and per_page), when there is more than one page',
    schema: z.string(),
  },
};
