import { dedupeAddresses } from "../src/domain/recipients";

describe("dedupeAddresses", () => {
  it("keeps each address once, case-insensitively, in first-seen order and spelling", () => {
    expect(dedupeAddresses([" Dev@Example.com", "owner@example.com", "dev@example.com", "DEV@EXAMPLE.COM", "owner@example.com"])).toEqual([
      "Dev@Example.com",
      "owner@example.com",
    ]);
  });

  it("drops empty values and strings that are no address", () => {
    expect(dedupeAddresses(["", "   ", null, undefined, "not-an-address", "a@example.com"])).toEqual(["a@example.com"]);
  });
});
