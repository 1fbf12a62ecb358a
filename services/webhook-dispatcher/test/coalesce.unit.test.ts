import { Coalescer } from "../src/domain/coalesce";

describe("Coalescer", () => {
  it("serves the calls of one event-loop turn with one batch, in order, and the next turn with another", async () => {
    const batches: number[][] = [];
    const c = new Coalescer<number, string>(async (inputs) => (batches.push(inputs), inputs.map((i) => `v${i}`)));
    const first = await Promise.all([c.call(1), c.call(2), c.call(3)]);
    const second = await c.call(4);
    expect(first).toEqual(["v1", "v2", "v3"]);
    expect(second).toBe("v4");
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it("cuts batches at maxBatch", async () => {
    const batches: number[][] = [];
    const c = new Coalescer<number, number>(async (inputs) => (batches.push(inputs), inputs), 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((i) => c.call(i)))).toEqual([1, 2, 3, 4, 5]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("fails every call of a failed batch, and only those", async () => {
    let fail = true;
    const c = new Coalescer<number, number>(async (inputs) => {
      if (fail) throw new Error("statement failed");
      return inputs;
    });
    const failed = await Promise.allSettled([c.call(1), c.call(2)]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await c.call(3)).toBe(3);
  });

  it("fails the batch when the batch function answers a different number of outputs", async () => {
    const c = new Coalescer<number, number>(async () => [1]);
    await expect(Promise.all([c.call(1), c.call(2)])).rejects.toThrow("1 outputs for 2 inputs");
  });
});
