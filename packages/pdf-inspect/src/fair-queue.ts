/**
 * Waiting work per tenant (a customer, an address), served round-robin with at most `perTenant`
 * items of one tenant running at once (issue 26, item 2): one customer's burst of uploads waits
 * behind its own earlier ones, never in front of another customer's, and cannot hold more than its
 * share of the inspector's processes for long.
 *
 * Work-conserving (issue 25): when nobody else has work a tenant may start, a tenant past its share
 * may *borrow* an idle process (`next({ borrow: true })`), so that a single busy customer is not held
 * to one process while the others idle. The caller bounds a borrowed run (PdfInspector preempts it
 * when another tenant's work waits), and an item handed back by a preemption goes to the front of
 * its tenant's queue, marked not to borrow again.
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

  /** Puts an item back at the head of its tenant's queue (a preempted run), keeping the tenant's place in the rotation. */
  pushFront(tenant: string, item: T): void {
    const items = this.waiting.get(tenant);
    if (items) items.unshift(item);
    else this.waiting.set(tenant, [item]);
  }

  /**
   * The next item to start: from the first tenant in the rotation with work waiting and room within
   * its share; failing that, with `borrow`, the first waiting item `mayBorrow` allows, past its
   * tenant's share (`borrowed: true`).
   */
  next(opts: { borrow?: boolean; mayBorrow?: (item: T) => boolean } = {}): { tenant: string; item: T; borrowed: boolean } | undefined {
    for (const [tenant, items] of this.waiting) {
      if ((this.running.get(tenant) ?? 0) >= this.perTenant) continue;
      return { tenant, item: this.take(tenant, items), borrowed: false };
    }
    if (!opts.borrow) return undefined;
    for (const [tenant, items] of this.waiting) {
      const head = items[0];
      if (head === undefined || (opts.mayBorrow && !opts.mayBorrow(head))) continue;
      return { tenant, item: this.take(tenant, items), borrowed: true };
    }
    return undefined;
  }

  /** Whether a tenant (other than `except`) has work waiting and room within its share to start it. */
  waitsWithinShare(except?: string): boolean {
    for (const [other, items] of this.waiting) {
      if (other !== except && items.length > 0 && (this.running.get(other) ?? 0) < this.perTenant) return true;
    }
    return false;
  }

  /** Whether a tenant other than `tenant` has any work waiting (within its share or not). */
  waitsOtherThan(tenant: string): boolean {
    for (const [other, items] of this.waiting) if (other !== tenant && items.length > 0) return true;
    return false;
  }

  /**
   * The head of `tenant`'s own items, whatever its share, when `may` allows it (a process prefetching
   * more of the tenant it works for, PdfInspector): counted as running like any other.
   */
  takeFrom(tenant: string, may: (item: T) => boolean): T | undefined {
    const items = this.waiting.get(tenant);
    const head = items?.[0];
    if (!items || head === undefined || !may(head)) return undefined;
    return this.take(tenant, items);
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

  /** Takes the head of `tenant`'s items and moves the tenant to the back of the rotation. */
  private take(tenant: string, items: T[]): T {
    const item = items.shift() as T;
    this.waiting.delete(tenant);
    if (items.length > 0) this.waiting.set(tenant, items);
    this.running.set(tenant, (this.running.get(tenant) ?? 0) + 1);
    return item;
  }
}
