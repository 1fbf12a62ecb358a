// Orders test files slowest first and splits them into shards of about equal running time, so that
// `pnpm test` can run the integration tier as parallel shards (scripts/test.ts) that finish together.
// Jest's own sharding splits by count, which put the slow end-to-end suites into one shard.
//
// A file's weight is its running time from the last local run (.data/test-timings.json, written by
// scripts/test.ts), else from the reference run committed beside this file (suite-timings.json),
// else its size in bytes scaled to seconds (a new file). CommonJS: Jest loads it before any transform.
const { existsSync, readFileSync, statSync } = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const SOURCES = [path.join(ROOT, ".data", "test-timings.json"), path.join(__dirname, "suite-timings.json")];
// About what the measured suites cost per byte of test source (reference run: ~1 s per 1.2 KB).
const SECONDS_PER_BYTE = 1 / 1200;

function readTimings() {
  const merged = {};
  // Later sources fill gaps only: the last local run wins over the committed reference.
  for (const file of SOURCES) {
    if (!existsSync(file)) continue;
    try {
      const timings = JSON.parse(readFileSync(file, "utf8"));
      for (const [name, seconds] of Object.entries(timings)) {
        if (!(name in merged) && typeof seconds === "number") merged[name] = seconds;
      }
    } catch {
      // A damaged timings file only costs balance, never the run.
    }
  }
  return merged;
}

class BalancedSequencer {
  constructor() {
    this.timings = readTimings();
  }

  weight(test) {
    const rel = path.relative(ROOT, test.path).split(path.sep).join("/");
    const known = this.timings[rel];
    if (known !== undefined) return known;
    try {
      return statSync(test.path).size * SECONDS_PER_BYTE;
    } catch {
      return 1;
    }
  }

  bySlowest(tests) {
    return [...tests].sort((a, b) => this.weight(b) - this.weight(a) || a.path.localeCompare(b.path));
  }

  /**
   * Slowest first, ties by path: parallel workers then end together, and the order is stable. In a
   * shard the order is rotated by the shard's place, so that the shards do not all start with their
   * heaviest suite at once (the slowest suites are the ones that run eight services or a browser).
   */
  sort(tests) {
    const sorted = this.bySlowest(tests);
    if (!this.shardPlace) return sorted;
    const { index, count } = this.shardPlace;
    const by = Math.floor(((index - 1) * sorted.length) / count);
    return [...sorted.slice(by), ...sorted.slice(0, by)];
  }

  /** Greedy: each file, slowest first, goes to the shard with the least work so far. */
  shard(tests, { shardIndex, shardCount }) {
    this.shardPlace = { index: shardIndex, count: shardCount };
    const loads = new Array(shardCount).fill(0);
    const mine = [];
    for (const test of this.bySlowest(tests)) {
      let lightest = 0;
      for (let i = 1; i < shardCount; i++) if (loads[i] < loads[lightest]) lightest = i;
      loads[lightest] += this.weight(test);
      if (lightest === shardIndex - 1) mine.push(test);
    }
    return mine;
  }

  allFailedTests(tests) {
    return tests;
  }

  cacheResults() {}
}

module.exports = BalancedSequencer;
