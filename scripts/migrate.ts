// Applies the migrations in prisma/migrations to DATABASE_URL, creating the database if needed.
// Works offline (no Prisma schema engine download); see packages/db/README.md.
import { loadConfig } from "@esign/config";
import { applyMigrations, createPrisma, ensureDatabase, reencryptSecrets } from "@esign/db";

async function main(): Promise<void> {
  const config = loadConfig();
  // Migrations hold a session-level advisory lock: never through a transaction-mode pooler.
  const url = config.DATABASE_SESSION_URL ?? config.DATABASE_URL;
  const created = await ensureDatabase(url);
  if (created) process.stderr.write(`created database ${new URL(url).pathname.slice(1)}\n`);
  const applied = await applyMigrations(url, undefined, (m) => process.stderr.write(`${m}\n`));
  process.stderr.write(applied.length > 0 ? `applied ${applied.length} migration(s)\n` : "database is up to date\n");
  // SQL cannot encrypt: the signers' CPR and social security numbers a migration left in clear
  // (20261126400000_signer_national_ids_encrypted) are encrypted here, with ENCRYPTION_KEY.
  const db = createPrisma(url, 2);
  try {
    const counts = await reencryptSecrets(db, config.ENCRYPTION_KEYRING, { onlyClearIds: true });
    for (const [column, n] of Object.entries(counts)) process.stderr.write(`encrypted ${n} clear value(s) of ${column}\n`);
  } finally {
    await db.$disconnect();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`migrate failed: ${(err as Error).message}\n`);
  process.exit(1);
});
