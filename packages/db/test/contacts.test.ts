import { sqlPool, storeContacts, withSqlTransaction } from "../src";
import { createWorld, type World } from "../../../test/support/webhook-world";

// storeContacts: the writer every route that adds signers or copy recipients with storeAsContact
// uses (the create's CTE is contactInsert, the same INSERT). One contact per email per customer,
// ignoring case; an email with a contact leaves it as it is.
let world: World;
beforeAll(async () => {
  world = await createWorld("contacts");
});
afterAll(async () => world?.close());

const contactsOf = (customerId: number) =>
  world.db.contact.findMany({ where: { customerId }, orderBy: { id: "asc" }, select: { id: true, name: true, email: true, onBehalfOf: true } });

describe("storeContacts", () => {
  it("keeps one contact per email ignoring case, the first of a batch, and never changes one that exists", async () => {
    const { customerId } = await world.customer();
    const other = await world.customer();
    await world.db.$transaction((tx) =>
      storeContacts(tx, customerId, [
        { name: "Alice", email: "alice@example.com", onBehalfOf: "Acme" },
        { name: "Alice Again", email: "ALICE@example.com" },
        { name: "Bob", email: "bob@example.com" },
      ]),
    );
    const first = await contactsOf(customerId);
    expect(first).toEqual([
      { id: expect.any(Number), name: "Alice", email: "alice@example.com", onBehalfOf: "Acme" },
      { id: expect.any(Number), name: "Bob", email: "bob@example.com", onBehalfOf: null },
    ]);

    // On a pg transaction too; Bob's contact keeps its name, Carol is new; the other customer is apart.
    await withSqlTransaction(sqlPool(world.db), (client) =>
      storeContacts(client, customerId, [
        { name: "Robert", email: "Bob@Example.COM" },
        { name: "Carol", email: "carol@example.com" },
      ]),
    );
    await storeContacts(sqlPool(world.db), other.customerId, [{ name: "Bob elsewhere", email: "bob@example.com" }]);
    await storeContacts(sqlPool(world.db), customerId, []);
    expect(await contactsOf(customerId)).toEqual([...first, { id: first[1]!.id + 1, name: "Carol", email: "carol@example.com", onBehalfOf: null }]);
    expect((await contactsOf(other.customerId)).map((c) => c.name)).toEqual(["Bob elsewhere"]);
  });

  it("makes one contact when two transactions store the same new email at once", async () => {
    const { customerId } = await world.customer();
    await Promise.all(
      ["Dora", "DORA"].map((name) =>
        withSqlTransaction(sqlPool(world.db), (client) => storeContacts(client, customerId, [{ name, email: `${name}@example.com` }])),
      ),
    );
    expect(await world.db.contact.count({ where: { customerId } })).toBe(1);
  });
});
