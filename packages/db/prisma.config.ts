// Prisma CLI config. Prisma 7 dropped `engine: "js"` / `adapter` here and the datasource `url` from
// the schema: the URL is only read by CLI commands that connect (migrate, db); `prisma generate`
// needs no database. No env() helper: it throws when DATABASE_URL is unset, which would break
// `pnpm install` (postinstall generate) on machines without one.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "../../prisma/schema.prisma",
  migrations: { path: "../../prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
});
