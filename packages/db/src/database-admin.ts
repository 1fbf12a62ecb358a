import { Client } from "pg";

function split(databaseUrl: string): { adminUrl: string; name: string } {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsupported database name "${name}"`);
  url.pathname = "/postgres";
  return { adminUrl: url.toString(), name };
}

export async function withDatabase<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates the database named in the URL when it does not exist (fresh machines, test runs). */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const { adminUrl, name } = split(databaseUrl);
  return withDatabase(adminUrl, async (c) => {
    const found = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return false;
    await c.query(`CREATE DATABASE "${name}"`);
    return true;
  });
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const { adminUrl, name } = split(databaseUrl);
  await withDatabase(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
