import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export const DEFAULT_MIGRATIONS_DIR = path.resolve(__dirname, "../../../prisma/migrations");

/** Migrations in Prisma's layout: `<dir>/<timestamp>_<name>/migration.sql`, in name order. */
export function listMigrations(dir = DEFAULT_MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

// Same bookkeeping table as Prisma Migrate, so `prisma migrate deploy` sees these as applied
// wherever the native schema engine can be downloaded.
const BOOKKEEPING = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies pending migrations, each in its own transaction, under an advisory lock so that several
 * replicas booting at once apply each migration exactly once. Returns the names applied.
 */
export async function applyMigrations(databaseUrl: string, dir = DEFAULT_MIGRATIONS_DIR, log: (msg: string) => void = () => {}): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock(72707369)");
    await client.query(BOOKKEEPING);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const byName = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of listMigrations(dir)) {
      const known = byName.get(m.name);
      if (known !== undefined) {
        if (known !== m.checksum) log(`warning: migration ${m.name} was edited after it was applied`);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
      }
      applied.push(m.name);
      log(`applied migration ${m.name}`);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock(72707369)").catch(() => undefined);
    await client.end();
  }
  return applied;
}
