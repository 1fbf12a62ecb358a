/**
 * Gathers the calls made during one turn of the event loop and serves them with one batch call
 * (the DataLoader pattern): concurrent retries - each its own BullMQ job - then share one read and
 * one record statement instead of paying a round trip each. Idle, a batch is a single call and
 * waits for nothing but the current turn; under load batches grow by themselves.
 */
export class Coalescer<I, O> {
  private pending: { input: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  /** `run` returns one output per input, in order; if it throws, every call of the batch throws. */
  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly maxBatch = 100,
  ) {}

  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    this.run(batch.map((b) => b.input))
      .then((outputs) => {
        if (outputs.length !== batch.length) throw new Error(`Coalescer: ${outputs.length} outputs for ${batch.length} inputs`);
        for (const [i, b] of batch.entries()) b.resolve(outputs[i]!);
      })
      .catch((err: unknown) => {
        for (const b of batch) b.reject(err);
      });
  }
}
