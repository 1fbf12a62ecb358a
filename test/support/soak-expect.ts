import type { SoakReport } from "./soak";

/**
 * What every replica, PgBouncer and soak run must show: nothing lost, nothing done twice to effect,
 * no job stuck, every accepted create one case file, every completed case file sealed, and enough
 * work done that the run proves something.
 */
export function expectNothingLost(report: SoakReport, atLeast: { accepted: number; completed: number }): void {
  expect(report.lost).toEqual([]);
  expect(report.doubled).toEqual([]);
  expect(report.stuck).toBe(0);
  expect(report.created).toBe(report.accepted);
  expect(report.accepted).toBeGreaterThan(atLeast.accepted);
  expect(report.completed).toBeGreaterThan(atLeast.completed);
  expect(report.sealed).toBe(report.completed);
}
