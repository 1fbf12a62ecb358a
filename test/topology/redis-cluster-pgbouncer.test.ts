import { SOAK_DEFAULTS, runSoak, soakTable } from "../support/soak";
import { expectNothingLost } from "../support/soak-expect";

/*
 * Issue 17: the replica suite (two of every service, one- and two-round signings, sendAt, expiry and
 * reminder timers, a healthy and a failing-first subscription) on the two shapes a deployment past
 * one machine takes, at once:
 * - Redis Cluster: three masters the test starts from the local redis-server (`--cluster-enabled yes`,
 *   `redis-cli --cluster create`); REDIS_CLUSTER_NODES names the seeds and the hash-tagged QUEUE_PREFIX
 *   keeps every key in one slot, as BullMQ's scripts need. The workers check noeviction on every master.
 * - PgBouncer in transaction mode (Debian's pgbouncer) as DATABASE_URL, the outbox relay's LISTEN and
 *   the migrations on a direct session (DATABASE_SESSION_URL); PostgreSQL restarted once behind it.
 *   Transaction pooling breaks anything that leans on a session (named prepared statements, session
 *   advisory locks, SET, LISTEN): the journey completing with the bouncer carrying the traffic says
 *   nothing does.
 */
it("runs the replica journey on a three-master Redis Cluster and through PgBouncer, across a PostgreSQL restart", async () => {
  const report = await runSoak({
    ...SOAK_DEFAULTS,
    seconds: 12,
    killEveryMs: 0,
    redisRestarts: 0,
    postgresRestarts: 1,
    redisCluster: true,
    pgbouncer: true,
    log: (line) => process.stdout.write(`cluster+pgbouncer: ${line}\n`),
  });
  process.stdout.write(`${soakTable(report)}\n`);
  expectNothingLost(report, { accepted: 8, completed: 4 });
  // Duplicate deliveries are not asserted here: a delivery answered 2xx whose attempt could not be
  // recorded while PostgreSQL was away is sent again (at least once); the table reports them.
  expect(report.expired).toBeGreaterThan(0);
  // The services' traffic went through the bouncer.
  expect(report.pgbouncerTransactions).toBeGreaterThan(500);
}, 240_000);
