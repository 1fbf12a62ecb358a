/**
 * Waiting work per tenant (a customer, an address), served round-robin with at most `perTenant`
 * items of one tenant running at once (issue 26, item 2): one customer's burst of uploads waits
 * behind its own earlier ones, never in front of another customer's, and cannot hold more than its
 * share of the inspector's processes.
 */
export class FairQueue<T> {
  // A Map iterates in insertion order: deleting and re-adding a tenant moves it to the back of the rotation.
  private readonly waiting = new Map<string, T[]>();
  private readonly running = new Map<string, number>();

  constructor(private readonly perTenant: number) {}

  push(tenant: string, item: T): void {
    const items = this.waiting.get(tenant);
    if (items) items.push(item);
    else this.waiting.set(tenant, [item]);
  }

  /** The next item to start, taken from the first tenant in the rotation with work waiting and room to run it. */
  next(): { tenant: string; item: T } | undefined {
    for (const [tenant, items] of this.waiting) {
      const running = this.running.get(tenant) ?? 0;
      if (running >= this.perTenant) continue;
      const item = items.shift();
      this.waiting.delete(tenant);
      if (item === undefined) continue;
      if (items.length > 0) this.waiting.set(tenant, items);
      this.running.set(tenant, running + 1);
      return { tenant, item };
    }
    return undefined;
  }

  /** One of `tenant`'s items has finished running. */
  done(tenant: string): void {
    const running = (this.running.get(tenant) ?? 0) - 1;
    if (running > 0) this.running.set(tenant, running);
    else this.running.delete(tenant);
  }

  /** Empties the queue, handing back everything that was waiting. */
  drain(): T[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    return all;
  }
}
