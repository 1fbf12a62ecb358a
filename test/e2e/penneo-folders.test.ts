import type { CustomerCredentials } from "@esign/accounts";
import { closeTestDb, newCustomer, testDb } from "../support/api";
import { startInProcessGateway, type InProcessGateway } from "../support/in-process-gateway";
import { dotnetWsseHeaders, netPagination, phpWsseHeaders, sendRaw, type RawAnswer } from "../support/penneo-clients";

/*
 * Folders as Penneo's SDKs use them (issue 24, item 3), replayed as they send them:
 * - sdk-net (v3, WSSE): `POST folders {title, parent}` (parent: the parent's INT id), FindAllAsync<Folder>
 *   then Folder.QueryPostProcessor over the answer, `POST`/`DELETE folders/{fid}/casefiles/{cfid}` with
 *   no body and no Content-Type, GetCaseFilesAsync, CaseFile.GetFoldersAsync, page/per_page sent twice
 *   with `x-paginate: true` and its PaginationUtil over the Link header.
 * - sdk-php (v1, WSSE): `Content-type: application/json` on every request, LINK/UNLINK with an empty
 *   body, findByTitle, getCaseFiles($page, PHP_INT_MAX).
 * Only the gateway matters here (case files are rows written directly): the gateway in process.
 */

let gw: InProcessGateway;
let me: CustomerCredentials;
let other: CustomerCredentials;

type Who = CustomerCredentials;
const NET_UA = "Penneo%2Fsdk-net%408.0.1";
const PHP_UA = "penneo/penneo-sdk-php v:4.0.0 key:ak_00000 ua:";

/** sdk-net's RestSharp request: Content-Type only with a body, x-paginate only when paging. */
function net(method: string, path: string, body?: unknown, opts: { who?: Who; paginate?: boolean } = {}): Promise<RawAnswer> {
  const who = opts.who ?? me;
  const headers: Record<string, string> = {
    ...dotnetWsseHeaders(who.apiKey, who.apiSecret),
    "User-Agent": NET_UA,
    Accept: "application/json, text/json, text/x-json, text/javascript, application/xml, text/xml",
    ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
    ...(opts.paginate ? { "x-paginate": "true" } : {}),
  };
  return sendRaw(gw.url, method, `/api/v3/${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
}

/** sdk-php's Guzzle request on its WSSE default endpoint (/api/v1/): `Content-type: application/json` always, no Accept. */
function php(method: string, path: string, body?: unknown, who: Who = me): Promise<RawAnswer> {
  const headers = { ...phpWsseHeaders(who.apiKey, who.apiSecret), "Content-type": "application/json", "User-Agent": PHP_UA };
  return sendRaw(gw.url, method, `/api/v1/${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
}

interface FolderJson {
  sdkClassName: string;
  id: number;
  title: string;
  parentId: number | null;
  [key: string]: unknown;
}

/**
 * Folder.QueryPostProcessor (sdk-net, Src/Penneo/(Model)/Folder.cs), rebuilt: the list by id
 * (ToDictionary: a duplicate id throws), then every folder whose `Parent` (Newtonsoft matches the
 * key ignoring case) is set is looked up in the same answer (NotSupportedException when it is not
 * there) and added to its ChildFolders; the roots are answered.
 */
function netFolderPostProcessor(list: FolderJson[]) {
  const root = new Map<number, FolderJson & { childFolders: FolderJson[] }>();
  for (const f of list) {
    if (root.has(f.id)) throw new Error("ToDictionary: an item with the same key has already been added");
    root.set(f.id, { ...f, childFolders: Array.isArray(f.childFolders) ? [...(f.childFolders as FolderJson[])] : [] });
  }
  const children = new Set<number>();
  for (const f of list) {
    const parentKey = Object.keys(f).find((k) => k.toLowerCase() === "parent");
    const parent = parentKey === undefined ? null : f[parentKey];
    if (parent === null || parent === undefined) continue;
    if (typeof parent !== "object") throw new Error("JsonSerializationException: Parent is a Folder object");
    const actual = root.get((parent as { id: number }).id);
    if (!actual) throw new Error("NotSupportedException");
    actual.childFolders.push(f);
    children.add(f.id);
  }
  return [...root.values()].filter((f) => !children.has(f.id));
}

const caseFile = async (who: Who, title: string, extra: { deletedAt?: Date; status?: number } = {}) =>
  (await testDb().caseFile.create({ data: { customerId: who.customerId, userId: who.userId, title, ...extra } })).id;
const folderIdOf = async (cf: number) => (await testDb().caseFile.findUniqueOrThrow({ where: { id: cf } })).folderId;
const folderLog = (cf: number) => testDb().logEntry.findMany({ where: { caseFileId: cf, code: 107 }, orderBy: { id: "asc" } });
const issuesOf = (res: RawAnswer) => ((res.json as { errors?: { path: string; code: string }[] }).errors ?? []).map((e) => [e.path, e.code]);

async function newFolder(title: string, parent?: number, who: Who = me): Promise<number> {
  const res = await net("POST", "folders", parent === undefined ? { title } : { title, parent }, { who });
  expect(res.status).toBe(201);
  return (res.json as FolderJson).id;
}

beforeAll(async () => {
  gw = await startInProcessGateway();
  me = await newCustomer();
  other = await newCustomer();
}, 30_000);

afterAll(async () => {
  await gw?.close();
  await closeTestDb();
});

describe("sdk-net: the folder tree", () => {
  it("creates with {title, parent}, lists with FindAllAsync (its post-processor never throws) and reads one", async () => {
    const created = await net("POST", "folders", { title: "Clients" });
    expect(created.status).toBe(201);
    // PopulateObject takes the id from the answer; no parent object, no childFolders (research §2.7).
    const root = created.json as FolderJson;
    expect(root).toEqual({
      sdkClassName: "Folder",
      id: expect.any(Number),
      title: "Clients",
      parentId: null,
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    const child = await newFolder("Acme A/S", root.id);
    const grandChild = await newFolder("2026", child);

    const all = await net("GET", "folders");
    expect(all.status).toBe(200);
    expect(all.headers.get("link")).toBeNull();
    const list = all.json as FolderJson[];
    for (const f of list) {
      expect(f).not.toHaveProperty("parent");
      expect(f).not.toHaveProperty("childFolders");
    }
    expect(list.map((f) => [f.title, f.parentId])).toEqual(
      expect.arrayContaining([
        ["Clients", null],
        ["Acme A/S", root.id],
        ["2026", child],
      ]),
    );
    expect(() => netFolderPostProcessor(list)).not.toThrow();
    // A filtered list (the parent missing from it) is safe too: the answer never names a parent object.
    const filtered = (await net("GET", "folders?title=2026")).json as FolderJson[];
    expect(filtered.map((f) => f.id)).toEqual([grandChild]);
    expect(() => netFolderPostProcessor(filtered)).not.toThrow();

    const one = await net("GET", `folders/${child}`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: child, title: "Acme A/S", parentId: root.id });
  });

  it("lists the subfolders of a folder (parentId) and the top level (parentId=0), paged with a Link header", async () => {
    const top = await newFolder("Paged");
    const kids = [await newFolder("k1", top), await newFolder("k2", top), await newFolder("k3", top)];
    expect(((await net("GET", `folders?parentId=${top}`)).json as FolderJson[]).map((f) => f.id)).toEqual(kids);
    expect(((await net("GET", "folders?parentId=0")).json as FolderJson[]).every((f) => f.parentId === null)).toBe(true);

    // FindByAsync with page 1 of 2 per page: page and per_page twice, x-paginate.
    const first = await net("GET", `folders?parentId=${top}&per_page=2&page=1&sort=title&order=desc&per_page=2&page=1`, undefined, { paginate: true });
    expect((first.json as FolderJson[]).map((f) => f.title)).toEqual(["k3", "k2"]);
    const links = netPagination(first.headers.get("link") ?? "");
    expect(links.next).toMatchObject({ page: 2, perPage: 2 });
    const next = await sendRaw(gw.url, "GET", new URL(links.next!.url).pathname + new URL(links.next!.url).search, {
      ...dotnetWsseHeaders(me.apiKey, me.apiSecret),
      "x-paginate": "true",
    });
    expect((next.json as FolderJson[]).map((f) => f.title)).toEqual(["k1"]);
  });

  it("renames and moves with PUT {title, parent}; a fetched folder PUT back changes nothing; parentId null moves to the top", async () => {
    const a = await newFolder("A");
    const b = await newFolder("B");
    const renamed = await net("PUT", `folders/${a}`, { title: "A renamed" });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ id: a, title: "A renamed", parentId: null });

    const moved = await net("PUT", `folders/${a}`, { title: "A renamed", parent: b });
    expect(moved.json).toMatchObject({ id: a, parentId: b });

    const fetched = (await net("GET", `folders/${a}`)).json as FolderJson;
    const echoed = await net("PUT", `folders/${a}`, fetched);
    expect(echoed.status).toBe(200);
    expect(echoed.json).toMatchObject({ id: a, title: "A renamed", parentId: b });

    expect((await net("PUT", `folders/${a}`, { parentId: null })).json).toMatchObject({ id: a, parentId: null });
  });

  it("refuses a move under itself or one of its own subfolders with a 400 naming parent", async () => {
    const a = await newFolder("cycle-a");
    const b = await newFolder("cycle-b", a);
    const c = await newFolder("cycle-c", b);
    for (const target of [a, b, c]) {
      const res = await net("PUT", `folders/${a}`, { parent: target });
      expect(res.status).toBe(400);
      expect(issuesOf(res)).toEqual([["parent", "folder_cycle"]]);
    }
    expect(issuesOf(await net("PUT", `folders/${a}`, { parentId: c }))).toEqual([["parentId", "folder_cycle"]]);
    // Nothing moved; a legal move of the same subtree still works.
    expect(((await net("GET", `folders/${a}`)).json as FolderJson).parentId).toBeNull();
    expect((await net("PUT", `folders/${c}`, { parent: a })).json).toMatchObject({ id: c, parentId: a });

    // Two moves at once that would together make a cycle (x under y, y under x): one of them is refused.
    for (let round = 0; round < 3; round++) {
      const x = await newFolder(`race-x-${round}`);
      const y = await newFolder(`race-y-${round}`);
      const [one, two] = await Promise.all([net("PUT", `folders/${x}`, { parent: y }), net("PUT", `folders/${y}`, { parent: x })]);
      expect([one.status, two.status].sort()).toEqual([200, 400]);
      const parents = await testDb().folder.findMany({ where: { id: { in: [x, y] } }, select: { parentId: true } });
      expect(parents.filter((p) => p.parentId !== null)).toHaveLength(1);
    }
  });

  it("deletes a folder and its links, never its case files: they stay (logged), its subfolders move up to its parent", async () => {
    const top = await newFolder("Del top");
    const doomed = await newFolder("Del doomed", top);
    const sub = await newFolder("Del sub", doomed);
    const cf = await caseFile(me, "Filed in the doomed folder");
    expect((await net("POST", `folders/${doomed}/casefiles/${cf}`)).status).toBe(204);

    const res = await net("DELETE", `folders/${doomed}`);
    expect(res.status).toBe(204);
    expect((await net("GET", `folders/${doomed}`)).status).toBe(404);
    expect((await net("GET", `folders/${sub}`)).json).toMatchObject({ id: sub, parentId: top });
    expect((await net("GET", `casefiles/${cf}`)).status).toBe(200);
    expect(await folderIdOf(cf)).toBeNull();
    expect((await net("GET", `casefiles/${cf}/folders`)).json).toEqual([]);
    const log = await folderLog(cf);
    expect(log.map((l) => [l.event, l.actor, l.userId, l.detail])).toEqual([
      ["folderChanged", "user", me.userId, { from: null, to: doomed }],
      ["folderChanged", "user", me.userId, { from: doomed, to: null, reason: "folderDeleted" }],
    ]);
    // A folder at the top: its subfolders go to the top.
    const top2 = await newFolder("Del top 2");
    const sub2 = await newFolder("Del sub 2", top2);
    expect((await net("DELETE", `folders/${top2}`)).status).toBe(204);
    expect(((await net("GET", `folders/${sub2}`)).json as FolderJson).parentId).toBeNull();
  });
});

describe("case files in folders: one folder each", () => {
  it("sdk-net links with POST and unlinks with DELETE (no body, no Content-Type); a link elsewhere moves it, logged from/to", async () => {
    const inbox = await newFolder("Inbox");
    const archive = await newFolder("Archive");
    const cf = await caseFile(me, "Linked by sdk-net");

    const linked = await net("POST", `folders/${inbox}/casefiles/${cf}`);
    expect(linked.status).toBe(204);
    const inFolder = await net("GET", `folders/${inbox}/casefiles`);
    expect(inFolder.status).toBe(200);
    expect(inFolder.json).toEqual([expect.objectContaining({ sdkClassName: "CaseFile", id: cf, title: "Linked by sdk-net", folderId: inbox })]);
    // CaseFile.GetFoldersAsync (sdk-net 7.1.0): an array.
    expect((await net("GET", `casefiles/${cf}/folders`)).json).toEqual([expect.objectContaining({ sdkClassName: "Folder", id: inbox, title: "Inbox" })]);

    // Linking to a second folder moves it: it is in one folder only.
    expect((await net("POST", `folders/${archive}/casefiles/${cf}`)).status).toBe(204);
    expect((await net("GET", `folders/${inbox}/casefiles`)).json).toEqual([]);
    expect(((await net("GET", `casefiles/${cf}/folders`)).json as FolderJson[]).map((f) => f.id)).toEqual([archive]);
    // The same link again changes and logs nothing.
    expect((await net("POST", `folders/${archive}/casefiles/${cf}`)).status).toBe(204);

    // Unlinking from a folder it is not in changes nothing; from its folder takes it out.
    expect((await net("DELETE", `folders/${inbox}/casefiles/${cf}`)).status).toBe(204);
    expect(await folderIdOf(cf)).toBe(archive);
    expect((await net("DELETE", `folders/${archive}/casefiles/${cf}`)).status).toBe(204);
    expect((await net("GET", `casefiles/${cf}/folders`)).json).toEqual([]);

    const log = await folderLog(cf);
    expect(log.map((l) => [l.code, l.event, l.actor, l.userId, l.detail])).toEqual([
      [107, "folderChanged", "user", me.userId, { from: null, to: inbox }],
      [107, "folderChanged", "user", me.userId, { from: inbox, to: archive }],
      [107, "folderChanged", "user", me.userId, { from: archive, to: null }],
    ]);
    expect(log[0]?.userAgent).toBe(NET_UA);
    expect(log[0]?.ip).toEqual(expect.any(String));
  });

  it("sdk-php links with LINK and unlinks with UNLINK (Content-type: application/json, empty body), finds by title, pages getCaseFiles with PHP_INT_MAX", async () => {
    const created = await php("POST", "folders", { title: "PHP folder" });
    expect(created.status).toBe(201);
    const folder = (created.json as FolderJson).id;
    const cfs = [await caseFile(me, "php one"), await caseFile(me, "php two")];
    for (const cf of cfs) expect((await php("LINK", `folders/${folder}/casefiles/${cf}`)).status).toBe(204);

    // Folder::findByTitle and find: GET with the Content-type header and no body.
    const found = await php("GET", "folders?title=php%20FOLDER");
    expect(found.status).toBe(200);
    expect((found.json as FolderJson[]).map((f) => f.id)).toEqual([folder]);
    expect((await php("GET", `folders/${folder}`)).json).toMatchObject({ title: "PHP folder" });

    // Folder::getCaseFiles(1): page=1&per_page=PHP_INT_MAX, clamped, one page, bare array of CaseFile entities.
    const page = await php("GET", `folders/${folder}/casefiles?page=1&per_page=9223372036854775807`);
    expect(page.status).toBe(200);
    expect(page.headers.get("link")).toBeNull();
    expect((page.json as { id: number; sdkClassName: string }[]).map((c) => [c.sdkClassName, c.id])).toEqual(cfs.map((id) => ["CaseFile", id]));
    // Folder::getCaseFiles(): no paging at all.
    expect(((await php("GET", `folders/${folder}/casefiles`)).json as unknown[]).length).toBe(2);

    expect((await php("UNLINK", `folders/${folder}/casefiles/${cfs[0]}`)).status).toBe(204);
    expect(((await php("GET", `folders/${folder}/casefiles`)).json as { id: number }[]).map((c) => c.id)).toEqual([cfs[1]]);
    // Folder::persist (update mapping: title) and Folder::delete, with the Content-type header on the DELETE.
    expect((await php("PUT", `folders/${folder}`, { title: "PHP renamed" })).json).toMatchObject({ title: "PHP renamed" });
    expect((await php("DELETE", `folders/${folder}`)).status).toBe(204);
    expect(await folderIdOf(cfs[1]!)).toBeNull();
  });

  it("pages a folder's case files as sdk-net does (Link header, page/per_page twice) and leaves deleted ones out", async () => {
    const folder = await newFolder("Many");
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await caseFile(me, `many ${i}`));
    const binned = await caseFile(me, "in the bin");
    for (const cf of ids) await net("POST", `folders/${folder}/casefiles/${cf}`);
    await testDb().caseFile.update({ where: { id: binned }, data: { folderId: folder, deletedAt: new Date(), status: 3 } });

    const first = await net("GET", `folders/${folder}/casefiles?per_page=2&page=1&per_page=2&page=1`, undefined, { paginate: true });
    expect((first.json as { id: number }[]).map((c) => c.id)).toEqual(ids.slice(0, 2));
    const links = netPagination(first.headers.get("link") ?? "");
    expect(links.next).toMatchObject({ page: 2, perPage: 2 });
    const second = await net("GET", `folders/${folder}/casefiles?per_page=2&page=2&per_page=2&page=2`, undefined, { paginate: true });
    expect((second.json as { id: number }[]).map((c) => c.id)).toEqual(ids.slice(2));
    expect(netPagination(second.headers.get("link") ?? "").next).toBeUndefined();
    // sdk-php's limit/offset, newest first.
    const newest = await php("GET", `folders/${folder}/casefiles?limit=1&offset=0&sort=created&order=desc`);
    expect((newest.json as { id: number }[]).map((c) => c.id)).toEqual([ids[2]]);
  });

  it("refuses to file a deleted case file (409)", async () => {
    const folder = await newFolder("Bin test");
    const cf = await caseFile(me, "deleted", { deletedAt: new Date(), status: 3 });
    const res = await net("POST", `folders/${folder}/casefiles/${cf}`);
    expect(res.status).toBe(409);
    expect(await folderIdOf(cf)).toBeNull();
  });
});

describe("bad input and tenancy", () => {
  it("answers bad input on every route with a 400 naming each failing field", async () => {
    const folder = await newFolder("Valid");
    const cases: [string, string, unknown, [string, string][]][] = [
      ["POST", "folders", {}, [["title", "required"]]],
      ["POST", "folders", { title: "   " }, [["title", "custom"]]],
      ["POST", "folders", { title: "x".repeat(256) }, [["title", "too_big"]]],
      ["POST", "folders", { title: "x", parent: "root" }, [["parent", "invalid_type"]]],
      ["POST", "folders", { title: "x", parent: 0 }, [["parent", "too_small"]]],
      ["POST", "folders", { title: "x", parent: 99_999_999 }, [["parent", "unknown_folder"]]],
      ["POST", "folders", { title: "x", parent: folder, parentId: folder + 1 }, [["parentId", "conflicting_parent"]]],
      [
        "POST",
        "folders",
        { titel: "typo" },
        [
          ["title", "required"],
          ["titel", "unrecognized_key"],
        ],
      ],
      ["PUT", `folders/${folder}`, { title: 5 }, [["title", "invalid_type"]]],
      ["PUT", `folders/${folder}`, { parent: 3_000_000_000 }, [["parent", "too_big"]]],
      ["PUT", `folders/${folder}`, { parent: 99_999_999 }, [["parent", "unknown_folder"]]],
      ["GET", "folders?colour=blue", undefined, [["colour", "unrecognized_key"]]],
      ["GET", "folders?sort=secret", undefined, [["sort", "invalid_sort"]]],
      [
        "GET",
        "folders?parentId=-1&per_page=0",
        undefined,
        [
          ["per_page", "too_small"],
          ["parentId", "invalid_format"],
        ],
      ],
      ["GET", `folders/${folder}/casefiles?order=sideways&sort=title`, undefined, [["order", "invalid_order"]]],
      ["GET", `folders/${folder}/casefiles?folderIds=1`, undefined, [["folderIds", "unrecognized_key"]]],
    ];
    for (const [method, path, body, expected] of cases) {
      const res = await net(method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 400]);
      expect(issuesOf(res).sort()).toEqual([...expected].sort());
    }
    // A malformed JSON body is a 400 too, and nothing was made.
    const broken = await sendRaw(gw.url, "POST", "/api/v3/folders", { ...dotnetWsseHeaders(me.apiKey, me.apiSecret), "Content-Type": "application/json" }, "{");
    expect(broken.status).toBe(400);
    expect(await testDb().folder.count({ where: { customerId: me.customerId, title: "x" } })).toBe(0);
    // Ids that are no ids name no resource.
    for (const path of ["folders/abc", "folders/0", `folders/${folder}/casefiles/abc`, "casefiles/99999999999/folders"]) {
      expect([path, (await net("GET", path)).status]).toEqual([path, 404]);
    }
    expect((await net("POST", `folders/${folder}/casefiles/x`)).status).toBe(404);
  });

  it("answers another customer's folders and case files 404, and never lists or changes them", async () => {
    const theirs = await newFolder("Theirs", undefined, other);
    const theirCaseFile = await caseFile(other, "their case file");
    await net("POST", `folders/${theirs}/casefiles/${theirCaseFile}`, undefined, { who: other });
    const mine = await newFolder("Mine");
    const myCaseFile = await caseFile(me, "my case file");

    for (const [method, path, body] of [
      ["GET", `folders/${theirs}`],
      ["PUT", `folders/${theirs}`, { title: "hijacked" }],
      ["DELETE", `folders/${theirs}`],
      ["GET", `folders/${theirs}/casefiles`],
      ["POST", `folders/${theirs}/casefiles/${myCaseFile}`],
      ["DELETE", `folders/${theirs}/casefiles/${theirCaseFile}`],
      ["POST", `folders/${mine}/casefiles/${theirCaseFile}`],
      ["DELETE", `folders/${mine}/casefiles/${theirCaseFile}`],
      ["GET", `casefiles/${theirCaseFile}/folders`],
    ] as [string, string, unknown?][]) {
      expect([method, path, (await net(method, path, body)).status]).toEqual([method, path, 404]);
    }
    expect((await php("LINK", `folders/${mine}/casefiles/${theirCaseFile}`)).status).toBe(404);
    // Their folder as a parent is no folder of mine: a 400 naming the field, like an unknown one.
    expect(issuesOf(await net("POST", "folders", { title: "under theirs", parent: theirs }))).toEqual([["parent", "unknown_folder"]]);
    expect(issuesOf(await net("PUT", `folders/${mine}`, { parent: theirs }))).toEqual([["parent", "unknown_folder"]]);

    const listed = (await net("GET", "folders")).json as FolderJson[];
    expect(listed.some((f) => f.id === theirs)).toBe(false);
    expect((await net("GET", `folders/${theirs}`, undefined, { who: other })).json).toMatchObject({ title: "Theirs", parentId: null });
    expect(await folderIdOf(theirCaseFile)).toBe(theirs);
    expect(await folderIdOf(myCaseFile)).toBeNull();
  });
});
