import { InFlightLimit } from "../src/domain/in-flight-limit";

const tick = () => new Promise((r) => setImmediate(r));

describe("InFlightLimit", () => {
  it("runs at most `limit` tasks at once and the rest in arrival order", async () => {
    const limit = new InFlightLimit(2);
    const started: number[] = [];
    const release: (() => void)[] = [];
    const tasks = [0, 1, 2, 3].map((i) =>
      limit.run(async () => {
        started.push(i);
        await new Promise<void>((r) => release.push(r));
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect([limit.inFlight, limit.queued]).toEqual([2, 2]);
    release.shift()!();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    release.shift()!();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const r of release.splice(0)) r();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3]);
    expect([limit.inFlight, limit.queued]).toEqual([0, 0]);
  });

  it("frees the slot of a task that throws", async () => {
    const limit = new InFlightLimit(1);
    await expect(limit.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await limit.run(() => Promise.resolve("next"))).toBe("next");
    expect(limit.inFlight).toBe(0);
  });

  it("refuses a limit below 1", () => {
    expect(() => new InFlightLimit(0)).toThrow(RangeError);
  });
});
