import { Client } from "pg";

/*
 * The search scenario's data: one customer with `count` case files (each with a signer and a
 * document) and other customers' rows around them, seeded in a few set-based statements
 * (generate_series), not one insert each. The secondary indexes of the three tables are dropped
 * first and built again from their own definitions afterwards (what the migration made, exactly):
 * building an index over a million rows is several times faster than keeping it up to date row by
 * row. VACUUM ANALYZE then leaves the tables as a long-lived database has them (statistics, the
 * visibility map).
 */

export interface SeedSpec {
  customerId: number;
  userId: number;
  count: number;
  /** Other customers' case files, interleaved in time with the main customer's. */
  others: { customerId: number; userId: number; count: number }[];
}

export interface SeedTimings {
  insertMs: number;
  indexMs: number;
  vacuumMs: number;
  rows: { caseFiles: number; signers: number; documents: number };
}

/** The kinds of agreement a title names (a tenth of the case files each). */
export const TITLE_KINDS = ["Lease", "Employment", "Purchase", "Loan", "Service", "Supply", "Consulting", "Partnership", "License", "Non-disclosure"];
/**
 * Titles name the counterparty ("Lease contract Mette Hansen"), one of FIRST_NAMES x LAST_NAMES: a
 * full name matches a 5000th of the case files, a last name a 100th (Danish names share their
 * endings, as an archive's titles share words).
 */
export const FIRST_NAMES = [
  "Mette",
  "Anne",
  "Kirsten",
  "Hanne",
  "Anna",
  "Helle",
  "Susanne",
  "Lene",
  "Maria",
  "Marianne",
  "Lone",
  "Camilla",
  "Pia",
  "Louise",
  "Charlotte",
  "Bente",
  "Tina",
  "Gitte",
  "Inge",
  "Karen",
  "Peter",
  "Jens",
  "Michael",
  "Lars",
  "Henrik",
  "Thomas",
  "Søren",
  "Jan",
  "Christian",
  "Niels",
  "Martin",
  "Anders",
  "Morten",
  "Jesper",
  "Mads",
  "Rasmus",
  "Per",
  "Hans",
  "Mikkel",
  "Jørgen",
  "Ole",
  "Kim",
  "Frederik",
  "Erik",
  "Poul",
  "Torben",
  "Kasper",
  "Emil",
  "Jakob",
  "Bo",
];
export const LAST_NAMES = [
  "Nielsen",
  "Jensen",
  "Hansen",
  "Pedersen",
  "Andersen",
  "Christensen",
  "Larsen",
  "Sørensen",
  "Rasmussen",
  "Jørgensen",
  "Petersen",
  "Madsen",
  "Kristensen",
  "Olsen",
  "Thomsen",
  "Christiansen",
  "Poulsen",
  "Johansen",
  "Møller",
  "Mortensen",
  "Knudsen",
  "Jakobsen",
  "Jacobsen",
  "Mikkelsen",
  "Olesen",
  "Frederiksen",
  "Laursen",
  "Henriksen",
  "Lund",
  "Schmidt",
  "Eriksen",
  "Holm",
  "Kristiansen",
  "Clausen",
  "Simonsen",
  "Svendsen",
  "Andreasen",
  "Iversen",
  "Østergaard",
  "Jeppesen",
  "Vestergaard",
  "Nissen",
  "Lauridsen",
  "Kjær",
  "Jepsen",
  "Mogensen",
  "Nørgaard",
  "Jessen",
  "Søndergaard",
  "Bertelsen",
  "Kjeldsen",
  "Dam",
  "Bach",
  "Carlsen",
  "Winther",
  "Friis",
  "Bak",
  "Koch",
  "Brandt",
  "Berg",
  "Skov",
  "Lind",
  "Krogh",
  "Toft",
  "Boesen",
  "Dahl",
  "Bruun",
  "Juhl",
  "Ravn",
  "Nygaard",
  "Klausen",
  "Bang",
  "Bjerre",
  "Storm",
  "Thygesen",
  "Buch",
  "Hald",
  "Mølgaard",
  "Gregersen",
  "Kofoed",
  "Kirkegaard",
  "Riis",
  "Lassen",
  "Overgaard",
  "Ottesen",
  "Lorentzen",
  "Steffensen",
  "Skovgaard",
  "Vinther",
  "Fischer",
  "Graversen",
  "Kjærgaard",
  "Hedegaard",
  "Lorenzen",
  "Birk",
  "Holst",
  "Bisgaard",
  "Hviid",
  "Enevoldsen",
  "Kirk",
];
/** reference REF-<n % REFERENCES>: ten case files share one. */
export const REFERENCES = 100_000;

/*
 * Case file n (1-based, per customer): created 30 s after n - 1, the newest now. Status by n % 20:
 * 0 draft, 1-3 pending, 4 rejected, 5 deleted (in the bin), the rest completed (70%), as an
 * archive that has been in use for a while looks.
 */
const INSERT_CASE_FILES = `
INSERT INTO "CaseFile" ("customerId", "userId", title, status, activate, language, "metaData", reference, "expireAt",
  "sentAt", "completedAt", "signedAt", "rejectedAt", "deletedAt", "deletedFromStatus", "createdAt", "updatedAt")
SELECT $1::int, $2::int,
  ($4::text[])[1 + (n / 7) % 10] || ' contract ' || ($5::text[])[1 + n % 50] || ' ' || ($6::text[])[1 + (n / 50) % 100],
  s.status, s.status <> 0, 'da', 'order-' || $1::int || '-' || n, 'REF-' || (n % ${REFERENCES}),
  CASE WHEN s.status = 1 THEN t + interval '90 days' END,
  CASE WHEN s.status <> 0 THEN t + interval '1 minute' END,
  CASE WHEN s.status = 5 THEN t + interval '2 hours' END,
  CASE WHEN s.status = 5 THEN t + interval '2 hours' END,
  CASE WHEN s.status = 2 THEN t + interval '1 hour' END,
  CASE WHEN s.status = 3 THEN t + interval '1 day' END,
  CASE WHEN s.status = 3 THEN 1 END,
  t, t + interval '2 hours'
FROM generate_series(1, $3::int) AS n,
  LATERAL (SELECT now() - ($3::int - n) * interval '30 seconds' AS t) AS tt,
  LATERAL (SELECT CASE WHEN n % 20 = 0 THEN 0 WHEN n % 20 <= 3 THEN 1 WHEN n % 20 = 4 THEN 2 WHEN n % 20 = 5 THEN 3 ELSE 5 END AS status) AS s`;

const INSERT_SIGNERS = `
INSERT INTO "Signer" ("caseFileId", name, email, role, status, notification, "activatedAt", "signedAt", "createdAt", "updatedAt")
SELECT id, 'Signer ' || id, 'signer' || id || '@example.com', 'Signer',
  CASE status WHEN 5 THEN 4 WHEN 2 THEN 2 WHEN 0 THEN 0 ELSE 1 END,
  '{}'::jsonb, "sentAt", "completedAt", "createdAt", "updatedAt"
FROM "CaseFile" WHERE "customerId" = $1::int`;

const INSERT_DOCUMENTS = `
INSERT INTO "Document" ("caseFileId", title, name, signable, "fileSha256", size, "pageCount", "metaData")
SELECT id, 'Agreement', 'agreement.pdf', true, md5(id::text) || md5(reverse(id::text)), 100000, 2, 'doc-' || id
FROM "CaseFile" WHERE "customerId" = $1::int`;

const TABLES = ["CaseFile", "Signer", "Document"];

async function connect(databaseUrl: string): Promise<Client> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  // Seeding only: no waiting for the WAL flush, room to sort an index's million keys in memory, and
  // no foreign-key triggers per row (the rows are made consistent by construction).
  await client.query("SET synchronous_commit = off");
  await client.query("SET maintenance_work_mem = '256MB'");
  await client.query("SET session_replication_role = replica");
  return client;
}

/** Runs the jobs on the connections, each connection taking the next job when it is free (two cores: two at a time). */
async function onEach<T>(clients: Client[], jobs: T[], run: (client: Client, job: T) => Promise<unknown>): Promise<void> {
  const queue = [...jobs];
  await Promise.all(
    clients.map(async (client) => {
      for (let job = queue.shift(); job !== undefined; job = queue.shift()) await run(client, job);
    }),
  );
}

export async function seedSearchData(databaseUrl: string, spec: SeedSpec, log: (m: string) => void): Promise<SeedTimings> {
  const clients = [await connect(databaseUrl), await connect(databaseUrl)];
  const [first] = clients as [Client, Client];
  try {
    const { rows: indexes } = await first.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       WHERE i.schemaname = current_schema() AND i.tablename = ANY($1::text[])
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      [TABLES],
    );
    for (const ix of indexes) await first.query(`DROP INDEX "${ix.indexname}"`);

    const t0 = performance.now();
    const customers = [{ customerId: spec.customerId, userId: spec.userId, count: spec.count }, ...spec.others];
    await onEach(clients, customers, (c, cust) => c.query(INSERT_CASE_FILES, [cust.customerId, cust.userId, cust.count, TITLE_KINDS, FIRST_NAMES, LAST_NAMES]));
    const counts = { signers: 0, documents: 0 };
    await onEach(clients, ["signers", "documents"] as const, async (c, what) => {
      counts[what] = (await c.query(what === "signers" ? INSERT_SIGNERS : INSERT_DOCUMENTS, [spec.customerId])).rowCount ?? 0;
    });
    const insertMs = performance.now() - t0;
    const total = customers.reduce((n, c) => n + c.count, 0);
    log(`  search: inserted ${total} case files, ${counts.signers} signers and ${counts.documents} documents in ${Math.round(insertMs / 1000)} s`);

    const t1 = performance.now();
    // The slowest (the trigram index) first, so the other connection builds the rest meanwhile.
    const ordered = [...indexes].sort((x, y) => Number(y.indexdef.includes("gin")) - Number(x.indexdef.includes("gin")));
    await onEach(clients, ordered, (c, ix) => c.query(ix.indexdef));
    const indexMs = performance.now() - t1;
    log(`  search: built ${indexes.length} indexes again in ${Math.round(indexMs / 1000)} s`);

    const t2 = performance.now();
    await onEach(clients, TABLES, (c, table) => c.query(`VACUUM (ANALYZE) "${table}"`));
    const vacuumMs = performance.now() - t2;
    return { insertMs, indexMs, vacuumMs, rows: { caseFiles: total, ...counts } };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
