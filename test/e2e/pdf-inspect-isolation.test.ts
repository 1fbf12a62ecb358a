import { closeTestDb, getToken, newCustomer, postCreate, testDb } from "../support/api";
import { makeInflationBombPdf } from "../support/hostile-pdf";
import { makePdf } from "../support/pdf";
import { startSystem, type System } from "../support/system";

/*
 * Issue 26, item 2, at the running gateway: one customer's create with three PDFs whose object
 * streams inflate far past the bound is refused, each file named as too costly to inspect (not
 * `pdf_unreadable`), and another customer's valid PDF sent at the same time is accepted.
 */

const MiB = 2 ** 20;
let system: System;

const caseFile = (title: string, names: string[]) => ({
  caseFile: {
    title,
    signers: [{ name: "Alice", email: "alice@example.com", enableInsecureSigning: true, insecureSigningMethods: ["text"] }],
    documents: names.map((name, i) => ({ title: `Document ${i + 1}`, name, ...(i > 0 ? { signable: false } : {}) })),
  },
});

beforeAll(async () => {
  // RATE_LIMIT_SCALE=1: the costly-PDF budget at its real size (10 a minute); two customers of this
  // file only. Five creates a minute per customer: customer A's fifth is the one the budget stops,
  // its sixth meets both limits (the last test).
  system = await startSystem(
    [],
    {},
    {
      PDF_INSPECT_MAX_INFLATED_BYTES: String(8 * MiB),
      JOB_POLL_LIMIT_PER_MINUTE: "0",
      RATE_LIMIT_SCALE: "1",
      CREATES_PER_CUSTOMER_PER_MINUTE: "5",
    },
  );
});

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

const names = ["one.pdf", "two.pdf", "three.pdf"];
let bombs: Buffer[];
let tokenA: string;
let tokenB: string;

it("refuses a customer's inflation bombs as pdf_too_costly, naming each file, while another customer's concurrent valid create succeeds", async () => {
  tokenA = await getToken(system.gateway.url, await newCustomer());
  tokenB = await getToken(system.gateway.url, await newCustomer());
  bombs = await Promise.all(names.map((n) => makeInflationBombPdf(64 * MiB, n)));
  const before = await testDb().creationJob.count();
  const [attack, ordinary] = await Promise.all([
    postCreate(
      system.gateway.url,
      tokenA,
      caseFile("Bombs", names),
      names.map((name, i) => ({ name, content: bombs[i] as Buffer })),
    ),
    postCreate(system.gateway.url, tokenB, caseFile("Ordinary", ["contract.pdf"]), [{ name: "contract.pdf", content: await makePdf("customer B", 2) }]),
  ]);
  expect(attack.status).toBe(400);
  expect(attack.body.errors).toEqual(
    names.map((name, i) => ({
      path: `files[${i}]`,
      code: "pdf_too_costly",
      message: expect.stringMatching(new RegExp(`^"${name}" is too costly to inspect.*more than ${8 * MiB} bytes`)),
    })),
  );
  expect(ordinary.status).toBe(200);
  expect(ordinary.body.status).toBe("handled");
  // Only B's job was written.
  expect(await testDb().creationJob.count()).toBe(before + 1);
});

it("stops a customer's creates with a 429 once COSTLY_PDFS_PER_CUSTOMER_PER_MINUTE of its uploads were refused as too costly; another customer goes on", async () => {
  const attack = () =>
    postCreate(
      system.gateway.url,
      tokenA,
      caseFile("Bombs", names),
      names.map((name, i) => ({ name, content: bombs[i] as Buffer })),
    );
  // 3 refused above; three more creates of 3 make 12, past the 10 of a minute.
  for (let i = 0; i < 3; i++) expect((await attack()).status).toBe(400);
  const stopped = await attack();
  expect(stopped.status).toBe(429);
  expect(stopped.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(stopped.body.message).toMatch(/too costly to inspect/);
  const other = await postCreate(system.gateway.url, tokenB, caseFile("Still fine", ["contract.pdf"]), [
    { name: "contract.pdf", content: await makePdf("customer B again") },
  ]);
  expect(other.status).toBe(200);
});

it("answers the create limit's 429 when the create limit and the costly-PDF budget both refuse (they are checked at once)", async () => {
  // Customer A has made five creates this minute (one above, four in the test before), its budget spent.
  const sixth = await postCreate(system.gateway.url, tokenA, caseFile("Sixth", ["contract.pdf"]), [
    { name: "contract.pdf", content: await makePdf("a sixth create") },
  ]);
  expect(sixth.status).toBe(429);
  expect(sixth.body.message).toMatch(/Too many case files created/);
  expect(sixth.headers.get("retry-after")).toMatch(/^\d+$/);
});
