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
  system = await startSystem([], {}, { PDF_INSPECT_MAX_INFLATED_BYTES: String(8 * MiB), JOB_POLL_LIMIT_PER_MINUTE: "0" });
});

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

it("refuses a customer's inflation bombs as pdf_too_costly, naming each file, while another customer's concurrent valid create succeeds", async () => {
  const [tokenA, tokenB] = await Promise.all([newCustomer(), newCustomer()].map(async (c) => getToken(system.gateway.url, await c)));
  const names = ["one.pdf", "two.pdf", "three.pdf"];
  const bombs = await Promise.all(names.map((n) => makeInflationBombPdf(64 * MiB, n)));
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
