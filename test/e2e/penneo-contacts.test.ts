import type { CustomerCredentials } from "@esign/accounts";
import { closeTestDb, newCustomer, testDb } from "../support/api";
import { startInProcessGateway, type InProcessGateway } from "../support/in-process-gateway";
import { dotnetWsseHeaders, netPagination, sendRaw, type RawAnswer } from "../support/penneo-clients";

/*
 * Contacts as sdk-net uses them (4.2.0+; sdk-php has none): `Contact {Name, Email, OnBehalfOf}`,
 * created and changed with `{name, email}` (its mapping), read with FindAsync / FindAllAsync /
 * FindByAsync (criteria, page and per_page twice, x-paginate), deleted with DeleteAsync (200 or
 * 204). One contact per email per customer, ignoring case. The gateway in process: nothing else
 * takes part.
 */

let gw: InProcessGateway;
let me: CustomerCredentials;
let other: CustomerCredentials;

interface ContactJson {
  sdkClassName: string;
  id: number;
  name: string;
  email: string;
  onBehalfOf: string | null;
}

function net(method: string, path: string, body?: unknown, opts: { who?: CustomerCredentials; paginate?: boolean } = {}): Promise<RawAnswer> {
  const who = opts.who ?? me;
  return sendRaw(
    gw.url,
    method,
    `/api/v3/${path}`,
    {
      ...dotnetWsseHeaders(who.apiKey, who.apiSecret),
      "User-Agent": "Penneo%2Fsdk-net%408.0.1",
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(opts.paginate ? { "x-paginate": "true" } : {}),
    },
    body === undefined ? undefined : JSON.stringify(body),
  );
}

const issuesOf = (res: RawAnswer) => ((res.json as { errors?: { path: string; code: string }[] }).errors ?? []).map((e) => [e.path, e.code]);

async function newContact(name: string, email: string, who = me): Promise<ContactJson> {
  const res = await net("POST", "contacts", { name, email }, { who });
  expect(res.status).toBe(201);
  return res.json as ContactJson;
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

describe("sdk-net's Contact", () => {
  it("creates with {name, email} (the answer carries the id PopulateObject takes), reads, changes and deletes", async () => {
    const created = await net("POST", "contacts", { name: "Jens Hansen", email: "Jens@Example.com" });
    expect(created.status).toBe(201);
    const contact = created.json as ContactJson;
    expect(contact).toEqual({
      sdkClassName: "Contact",
      id: expect.any(Number),
      name: "Jens Hansen",
      email: "Jens@Example.com",
      onBehalfOf: null,
      created: expect.any(Number),
      updated: expect.any(Number),
    });

    const read = await net("GET", `contacts/${contact.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(contact);

    // PersistAsync with an id: PUT with the update mapping {name, email}; onBehalfOf is ours to set.
    const changed = await net("PUT", `contacts/${contact.id}`, { name: "Jens M. Hansen", email: "jens.hansen@example.com" });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ id: contact.id, name: "Jens M. Hansen", email: "jens.hansen@example.com", onBehalfOf: null });
    expect((await net("PUT", `contacts/${contact.id}`, { onBehalfOf: "Acme A/S" })).json).toMatchObject({ name: "Jens M. Hansen", onBehalfOf: "Acme A/S" });
    // A fetched contact sent back changes nothing.
    const fetched = (await net("GET", `contacts/${contact.id}`)).json as ContactJson;
    expect((await net("PUT", `contacts/${contact.id}`, fetched)).json).toMatchObject({ name: "Jens M. Hansen", email: "jens.hansen@example.com" });

    const deleted = await net("DELETE", `contacts/${contact.id}`);
    expect(deleted.status).toBe(204);
    expect((await net("GET", `contacts/${contact.id}`)).status).toBe(404);
    expect((await net("DELETE", `contacts/${contact.id}`)).status).toBe(404);
  });

  it("keeps one contact per email ignoring case: a second create or a change to a taken email is a 409 naming email", async () => {
    const anna = await newContact("Anna", "anna@example.com");
    const again = await net("POST", "contacts", { name: "Anna Again", email: "ANNA@example.COM" });
    expect(again.status).toBe(409);
    expect(issuesOf(again)).toEqual([["email", "duplicate_email"]]);
    expect((again.json as { message: string }).message).toContain(`contact ${anna.id}`);
    expect((await net("GET", `contacts/${anna.id}`)).json).toMatchObject({ name: "Anna" });

    const bo = await newContact("Bo", "bo@example.com");
    const taken = await net("PUT", `contacts/${bo.id}`, { email: "Anna@Example.com" });
    expect(taken.status).toBe(409);
    expect(issuesOf(taken)).toEqual([["email", "duplicate_email"]]);
    expect((await net("GET", `contacts/${bo.id}`)).json).toMatchObject({ email: "bo@example.com" });
    // Its own email in another case is no conflict.
    expect((await net("PUT", `contacts/${bo.id}`, { email: "BO@example.com" })).json).toMatchObject({ email: "BO@example.com" });
    // Another customer may have the same email.
    expect((await net("POST", "contacts", { name: "Anna", email: "anna@example.com" }, { who: other })).status).toBe(201);
  });

  it("lists with FindAllAsync and FindByAsync: name contains, email equal ignoring case, paged by page/per_page with a Link header", async () => {
    const people = [
      await newContact("Paging One", "p1@example.com"),
      await newContact("Paging Two", "p2@example.com"),
      await newContact("Paging Three", "p3@example.com"),
    ];
    const all = await net("GET", "contacts");
    expect(all.status).toBe(200);
    expect(all.headers.get("link")).toBeNull();
    expect((all.json as ContactJson[]).map((c) => c.id)).toEqual(expect.arrayContaining(people.map((p) => p.id)));

    const byName = await net("GET", "contacts?name=paging&per_page=2&page=1&sort=name&order=asc&per_page=2&page=1", undefined, { paginate: true });
    expect((byName.json as ContactJson[]).map((c) => c.name)).toEqual(["Paging One", "Paging Three"]);
    const next = netPagination(byName.headers.get("link") ?? "").next;
    expect(next).toMatchObject({ page: 2, perPage: 2 });
    const url = new URL(next!.url);
    const second = await sendRaw(gw.url, "GET", url.pathname + url.search, { ...dotnetWsseHeaders(me.apiKey, me.apiSecret), "x-paginate": "true" });
    expect((second.json as ContactJson[]).map((c) => c.name)).toEqual(["Paging Two"]);

    // FindOneByAsync(email): the first element of the answer.
    expect(((await net("GET", "contacts?email=P2@EXAMPLE.com")).json as ContactJson[]).map((c) => c.id)).toEqual([people[1]!.id]);
    // A name with LIKE's wildcards matches them literally.
    expect((await net("GET", "contacts?name=%25")).json).toEqual([]);
  });
});

describe("bad input and tenancy", () => {
  it("answers bad input on every route with a 400 naming each failing field", async () => {
    const c = await newContact("Valid", "valid@example.com");
    const cases: [string, string, unknown, [string, string][]][] = [
      [
        "POST",
        "contacts",
        {},
        [
          ["email", "required"],
          ["name", "required"],
        ],
      ],
      ["POST", "contacts", { name: "x", email: "not-an-email" }, [["email", "invalid_format"]]],
      ["POST", "contacts", { name: " ", email: "x@example.com" }, [["name", "custom"]]],
      ["POST", "contacts", { name: "x", email: "x@example.com", onBehalfOf: 5 }, [["onBehalfOf", "invalid_type"]]],
      ["POST", "contacts", { name: "x", email: "x@example.com", phone: "1" }, [["phone", "unrecognized_key"]]],
      ["PUT", `contacts/${c.id}`, { email: "" }, [["email", "invalid_format"]]],
      ["PUT", `contacts/${c.id}`, { name: "y".repeat(256) }, [["name", "too_big"]]],
      ["GET", "contacts?phone=1", undefined, [["phone", "unrecognized_key"]]],
      ["GET", "contacts?sort=secret", undefined, [["sort", "invalid_sort"]]],
      [
        "GET",
        "contacts?limit=0&offset=-1",
        undefined,
        [
          ["limit", "too_small"],
          ["offset", "invalid_format"],
        ],
      ],
    ];
    for (const [method, path, body, expected] of cases) {
      const res = await net(method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 400]);
      expect(issuesOf(res).sort()).toEqual([...expected].sort());
    }
    expect(await testDb().contact.count({ where: { customerId: me.customerId, email: { in: ["x@example.com", "not-an-email"] } } })).toBe(0);
    expect((await net("GET", `contacts/${c.id}`)).json).toMatchObject({ name: "Valid", email: "valid@example.com" });
    for (const path of ["contacts/abc", "contacts/0", "contacts/99999999999"]) expect([path, (await net("GET", path)).status]).toEqual([path, 404]);
  });

  it("answers another customer's contact 404, and never lists or changes it", async () => {
    const theirs = await newContact("Their contact", "theirs@example.com", other);
    for (const [method, body] of [["GET"], ["PUT", { name: "hijacked" }], ["DELETE"]] as [string, unknown?][]) {
      expect([method, (await net(method, `contacts/${theirs.id}`, body)).status]).toEqual([method, 404]);
    }
    expect(((await net("GET", "contacts?email=theirs@example.com")).json as unknown[]).length).toBe(0);
    expect((await net("GET", `contacts/${theirs.id}`, undefined, { who: other })).json).toMatchObject({ name: "Their contact" });
  });
});
