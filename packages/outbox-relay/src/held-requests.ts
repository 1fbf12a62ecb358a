import type { MailThrottle } from "@esign/queue";
import type { InternalJob } from "@esign/schema";

/**
 * How long each of a drain's jobs waits before its worker sees it (ms; 0: at once). A signing
 * request of a customer over MAILS_PER_CUSTOMER_PER_MINUTE, or behind that customer's line of held
 * requests, is added delayed to its place in the line: the notifier fetches it when it is due,
 * instead of fetching it now only to hold it back (a fetch, a Redis read and a re-delay per request,
 * the notifier's main cost for a customer over its limit: issue 25). One script per customer per drain.
 * A request published again (same job id) keeps the place it was given: the line is not lengthened
 * by requests it already holds.
 */
export async function delaysOf(throttle: MailThrottle | undefined, jobs: readonly InternalJob[]): Promise<number[]> {
  const delays = new Array<number>(jobs.length).fill(0);
  if (!throttle) return delays;
  const byCustomer = new Map<number, number[]>();
  jobs.forEach((job, i) => {
    if (job.name !== "signing-request" || job.data.customerId === undefined) return;
    const at = byCustomer.get(job.data.customerId);
    if (at) at.push(i);
    else byCustomer.set(job.data.customerId, [i]);
  });
  await Promise.all(
    [...byCustomer].map(async ([customerId, indexes]) => {
      // The jobs' ids (derived from their events) keep a request's place when the same events are
      // published again: the creation job and the relay's poll meeting on them, or a retried drain.
      const places = await throttle.placesFor(
        customerId,
        indexes.length,
        true,
        indexes.map((i) => jobs[i]!.jobId),
      );
      indexes.forEach((jobIndex, k) => {
        delays[jobIndex] = places[k] ?? 0;
      });
    }),
  );
  return delays;
}
