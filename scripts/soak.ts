// `pnpm soak [--minutes N]` (default 3): the chaos soak of test/support/soak.ts on this machine. Two
// replicas of every service on a redis-server (AOF everysec) and a PostgreSQL cluster of its own
// (PostgreSQL's server binaries and redis-server must be installed; nothing else is touched), a mixed
// load, a random replica SIGKILLed every 4 s, Redis restarted twice and PostgreSQL once. Prints the
// table and exits 1 when anything was lost, done twice or left stuck.
import { z } from "zod";
import { SOAK_DEFAULTS, runSoak, soakTable } from "../test/support/soak";

const ZArgs = z.object({
  minutes: z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(3),
});

function parseArgs(argv: string[]): z.infer<typeof ZArgs> {
  const raw: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(minutes)(?:=(.*))?$/.exec(argv[i]!);
    if (!m) throw new Error(`unknown argument ${argv[i]}; usage: pnpm soak [--minutes N]`);
    raw[m[1]!] = m[2] ?? argv[++i] ?? "";
  }
  return ZArgs.parse(raw);
}

async function main(): Promise<number> {
  const { minutes } = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const log = (line: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
  const report = await runSoak({ ...SOAK_DEFAULTS, seconds: Math.round(minutes * 60), log });
  process.stdout.write(`\n${soakTable(report)}\n`);
  for (const line of [...report.lost, ...report.doubled]) process.stdout.write(`  ${line}\n`);
  const ok = report.lost.length === 0 && report.doubled.length === 0 && report.stuck === 0;
  process.stdout.write(ok ? "soak passed: nothing lost, nothing doubled, nothing stuck\n" : "soak FAILED\n");
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
