import { z } from "zod";
import { linkHeader, listKeys, listWindow } from "../src/contract/list-query";
import { netPagination } from "../../../test/support/penneo-clients";

const schema = z.strictObject({ ...listKeys(["created", "title", "id"]), title: z.string().optional() });
const parse = (query: Record<string, unknown>) => schema.parse(query);
const window = (query: Record<string, unknown>) => listWindow(parse(query), [{ field: "id", direction: "asc" }], 100);

describe("lists as Penneo's clients page and sort them", () => {
  it("reads sdk-net's page and per_page, sent twice, and sdk-php's limit and offset", () => {
    expect(window({ page: ["3", "3"], per_page: ["10", "10"] })).toEqual({ offset: 20, limit: 10, page: 3, sort: [{ field: "id", direction: "asc" }] });
    expect(window({ limit: "10", offset: "100" })).toMatchObject({ offset: 100, limit: 10, page: 11 });
    expect(window({})).toMatchObject({ offset: 0, limit: 100, page: 1 });
  });

  it("clamps a huge per_page or limit (sdk-php sends PHP_INT_MAX) instead of refusing it", () => {
    expect(window({ page: "2", per_page: "9223372036854775807" })).toMatchObject({ offset: 100, limit: 100, page: 2 });
    expect(window({ limit: "9223372036854775807" })).toMatchObject({ limit: 100 });
  });

  it("sorts by sort=a,b&order=desc,asc, by sort=-a, and by nothing when sort and order are empty", () => {
    expect(window({ sort: "created,title", order: "desc,ASC" }).sort).toEqual([
      { field: "created", direction: "desc" },
      { field: "title", direction: "asc" },
    ]);
    expect(window({ sort: "-created" }).sort).toEqual([{ field: "created", direction: "desc" }]);
    expect(window({ sort: "", order: "" }).sort).toEqual([{ field: "id", direction: "asc" }]);
  });

  it("refuses, naming the field: an unknown sort field or order, a page that disagrees with itself, an unknown filter", () => {
    const issues = (query: Record<string, unknown>) => schema.safeParse(query).error?.issues.map((i) => String(i.path[0] ?? i.code)) ?? [];
    expect(issues({ sort: "secret" })).toEqual(["sort"]);
    expect(issues({ sort: "title", order: "sideways" })).toEqual(["order"]);
    expect(issues({ page: ["2", "3"] })).toEqual(["page"]);
    expect(issues({ page: "0", per_page: "-1" })).toEqual(["page", "per_page"]);
    expect(issues({ colour: "blue" })).toEqual(["unrecognized_keys"]);
  });

  it("answers a Link header sdk-net's PaginationUtil parses: every key once, page and per_page in each link, no raw comma", () => {
    const query = { title: "a,b", sort: "created,title", order: "desc,asc", page: ["2", "2"], per_page: ["10", "10"] };
    const header = linkHeader("https://esign.test/api/v3/casefiles", query, { page: 2, limit: 10 }, true);
    expect(header).toBeDefined();
    expect(netPagination(header ?? "")).toEqual({ first: { page: 1, perPage: 10 }, prev: { page: 1, perPage: 10 }, next: { page: 3, perPage: 10 } });
    expect(header).toContain("title=a%2Cb&sort=created%2Ctitle&order=desc%2Casc&page=3&per_page=10");
    // One page only: no header at all (sdk-net before 7.0.1 fails on an empty one).
    expect(linkHeader("https://esign.test/api/v3/casefiles", {}, { page: 1, limit: 10 }, false)).toBeUndefined();
  });
});
