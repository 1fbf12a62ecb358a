import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { timerJobsOf } from "../src/domain/schedule-timers";

/*
 * The delayed jobs a case file's state calls for, built as one batch (scheduleCaseFileTimers adds them
 * in one pipeline): the case file's expiry, each unsigned signer's expiry, each current-round signer's
 * later activation; ids derived from the row and the moment, delays counted from now.
 */

const now = new Date("2026-11-27T12:00:00Z");
const later = (s: number) => new Date(now.getTime() + s * 1000);
const signer = (id: number, extra: Partial<{ signOrder: number; status: number; activeAt: Date; expireAt: Date; expiredAt: Date }> = {}) => ({
  id,
  signOrder: 0,
  status: SIGNER_STATUS.new,
  activeAt: null,
  expireAt: null,
  expiredAt: null,
  ...extra,
});

beforeAll(() => jest.useFakeTimers({ now }));
afterAll(() => jest.useRealTimers());

it("gives a pending case file its expiry, its unsigned signers' expiries and the round's later activations, in one batch", () => {
  const jobs = timerJobsOf(
    {
      caseFile: { id: 9, status: CASEFILE_STATUS.pending, activate: true, expireAt: later(3600) },
      signers: [
        signer(1, { status: SIGNER_STATUS.pending, expireAt: later(600) }),
        signer(2, { status: SIGNER_STATUS.signed, expireAt: later(600) }),
        signer(3, { activeAt: later(60) }),
        signer(4, { signOrder: 1, activeAt: later(120), expireAt: later(900) }),
        signer(5, { expireAt: later(-5), expiredAt: later(-5) }),
      ],
    },
    now,
  );
  expect(jobs.map((j) => [j.queue, j.name, j.data, j.opts?.jobId, j.opts?.delay])).toEqual([
    ["casefile", "expire", { caseFileId: 9 }, `expire-9-${later(3600).getTime()}`, 3_600_000],
    ["casefile", "expire-signer", { signerId: 1 }, `expire-signer-1-${later(600).getTime()}`, 600_000],
    // Signer 4 of the next round: its expiry is set now, its activation only when its round comes.
    ["casefile", "expire-signer", { signerId: 4 }, `expire-signer-4-${later(900).getTime()}`, 900_000],
    ["casefile", "activate-signer", { signerId: 3 }, `activate-signer-3-${later(60).getTime()}`, 60_000],
  ]);
});

it("gives a case file waiting to be sent only its expiry, and a finished one nothing", () => {
  const waiting = { id: 9, status: CASEFILE_STATUS.new, activate: true, expireAt: later(60) };
  expect(timerJobsOf({ caseFile: waiting, signers: [signer(1, { expireAt: later(30) })] }, now).map((j) => j.name)).toEqual(["expire"]);
  expect(timerJobsOf({ caseFile: { ...waiting, activate: false }, signers: [] }, now)).toEqual([]);
  expect(timerJobsOf({ caseFile: { ...waiting, status: CASEFILE_STATUS.completed }, signers: [signer(1, { expireAt: later(30) })] }, now)).toEqual([]);
});

it("adds a job whose moment has passed at once (no delay)", () => {
  const [job] = timerJobsOf({ caseFile: { id: 9, status: CASEFILE_STATUS.pending, activate: true, expireAt: later(-10) }, signers: [] }, now);
  expect(job?.opts?.delay).toBe(0);
});
