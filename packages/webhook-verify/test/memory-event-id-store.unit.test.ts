import { MemoryEventIdStore } from "../src";

describe("MemoryEventIdStore", () => {
  it("marks an id once and reports it as seen until it expires", () => {
    let clock = 1_000_000;
    const store = new MemoryEventIdStore({ now: () => clock });
    expect(store.markIfNew("a", 10)).toBe(true);
    expect(store.markIfNew("a", 10)).toBe(false);
    clock += 9_999;
    expect(store.markIfNew("a", 10)).toBe(false);
    clock += 1;
    expect(store.markIfNew("a", 10)).toBe(true);
    expect(store.markIfNew("a", 10)).toBe(false);
  });

  it("evicts expired entries as new ids arrive", () => {
    let clock = 0;
    const store = new MemoryEventIdStore({ now: () => clock });
    for (let i = 0; i < 50; i += 1) store.markIfNew(`old-${i}`, 1);
    expect(store.size).toBe(50);
    clock += 1_000;
    store.markIfNew("new", 1);
    expect(store.size).toBe(1);
  });

  it("evicts expired entries hidden behind longer-lived ones when full", () => {
    let clock = 0;
    const store = new MemoryEventIdStore({ now: () => clock, maxEntries: 3 });
    store.markIfNew("long", 100);
    store.markIfNew("short-1", 1);
    store.markIfNew("short-2", 1);
    clock += 2_000;
    expect(store.markIfNew("next", 1)).toBe(true);
    expect(store.size).toBe(2);
    expect(store.markIfNew("long", 100)).toBe(false);
  });

  it("never holds more than maxEntries, dropping the oldest live ids", () => {
    const store = new MemoryEventIdStore({ now: () => 0, maxEntries: 2 });
    store.markIfNew("a", 60);
    store.markIfNew("b", 60);
    store.markIfNew("c", 60);
    expect(store.size).toBe(2);
    expect(store.markIfNew("c", 60)).toBe(false);
    expect(store.markIfNew("b", 60)).toBe(false);
  });

  it("is also the module's default export", async () => {
    const module = await import("../src/event-id-store");
    expect(module.default).toBe(MemoryEventIdStore);
  });
});
