import { SOAK_DEFAULTS, runSoak, soakTable } from "../support/soak";
import { expectNothingLost } from "../support/soak-expect";

/*
 * Issue 17: the chaos soak, its 30-second version (`pnpm soak` runs it for 3 minutes or --minutes N).
 * Two replicas of every service under a steady mixed load while a random replica is SIGKILLed and
 * restarted every few seconds, Redis is restarted twice and PostgreSQL once. Nothing accepted may be
 * lost, nothing done twice to effect, no job left stuck; webhooks POSTed again are reported (at least
 * once is the contract).
 */
it("loses nothing and doubles nothing while replicas are killed and Redis and PostgreSQL restart", async () => {
  const report = await runSoak({ ...SOAK_DEFAULTS, seconds: 30, log: (line) => process.stdout.write(`soak: ${line}\n`) });
  process.stdout.write(`${soakTable(report)}\n`);
  expectNothingLost(report, { accepted: 30, completed: 10 });
  expect(report.expired).toBeGreaterThan(0);
  expect(report.kills).toBeGreaterThanOrEqual(3);
  expect(report.restarts).toHaveLength(3);
}, 300_000);
