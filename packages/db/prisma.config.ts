// Prisma CLI config. `engine: "js"` with the pg driver adapter lets `prisma migrate diff` produce
// migration SQL on machines that cannot download Prisma's native schema engine.
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "../../prisma/schema.prisma",
  adapter: async () =>
    new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" }),
});
