import { SOAK_DEFAULTS, runSoak, soakTable } from "../support/soak";
import { expectNothingLost } from "../support/soak-expect";

/*
 * Issue 17: two gateways and two of each worker on one database and one Redis, no faults. The load
 * mixes one- and two-round signings, sendAt, expiry and reminder timers, and a healthy and a
 * failing-first webhook subscription (the ladder retries). On the happy path every piece of work
 * happens exactly once: one case file per creation job, one signing request per signer activation,
 * each timer and each reminder once, each event delivered once to each matching subscription.
 */
it("runs the journey on two replicas of every service with every piece of work done exactly once", async () => {
  const report = await runSoak({
    ...SOAK_DEFAULTS,
    seconds: 10,
    killEveryMs: 0,
    redisRestarts: 0,
    postgresRestarts: 0,
    log: (line) => process.stdout.write(`replicas: ${line}\n`),
  });
  process.stdout.write(`${soakTable(report)}\n`);
  expectNothingLost(report, { accepted: 12, completed: 6 });
  expect(report.duplicates).toBe(0);
  expect(report.refused).toBe(0);
  expect(report.expired).toBeGreaterThan(0);
  expect(report.reminded).toBeGreaterThan(0);
}, 240_000);
