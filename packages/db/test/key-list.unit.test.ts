import { keyList, keysOf } from "../src/typed-sql/key-list";

// Keys as a list of parameters whose statement keeps its generic plan (key-list.ts): a few shapes serve every count.
it("pads keys to a power of two of at least four with the last one", () => {
  expect(keysOf(keyList(["a"]))).toEqual(["a", "a", "a", "a"]);
  expect(keysOf(keyList(["a", "b", "c", "d"]))).toEqual(["a", "b", "c", "d"]);
  expect(keysOf(keyList(["a", "b", "c", "d", "e"]))).toEqual(["a", "b", "c", "d", "e", "e", "e", "e"]);
  expect(keyList(Array.from({ length: 100 }, (_, i) => i))).toHaveLength(128);
  expect(() => keyList([])).toThrow("no keys");
});
