import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { notADraft, sendProblems, type ReadinessSigner } from "../src/archive/send-readiness";

const now = new Date("2026-11-26T12:00:00Z");
const draft = { status: CASEFILE_STATUS.new, activate: false, expireAt: null, signOnMeeting: false };
const signer = (over: Partial<ReadinessSigner> = {}): ReadinessSigner => ({
  name: "Ann",
  status: SIGNER_STATUS.new,
  channel: "email",
  email: "ann@example.com",
  cprEnc: null,
  cvr: null,
  role: "Signer",
  secureSigningMethods: [],
  ...over,
});
const account = { eboksEnabled: false, secureSigningMethods: ["mitid.dk"] };
const docs = [{ signable: true, roles: [] }];
const codes = (...args: Parameters<typeof sendProblems>) => sendProblems(...args).map((p) => `${p.path}:${p.code}`);

describe("what would stop a draft from being sent (GET .../errors, PATCH .../send)", () => {
  it("nothing for a draft whose signers can be reached and can sign", () => {
    expect(codes(draft, [signer()], docs, account, { mails: true, now })).toEqual([]);
  });

  it("a case file that is not a draft: its state, and only that", () => {
    expect(notADraft({ status: CASEFILE_STATUS.new, activate: true })).toMatch(/already been sent or activated/);
    expect(codes({ ...draft, status: CASEFILE_STATUS.deleted }, [], docs, account, { mails: true, now })).toEqual(["status:not_a_draft"]);
    expect(notADraft({ status: CASEFILE_STATUS.completed, activate: true })).toBe("The case file is completed");
  });

  it("each problem at its own path: expired, no address, e-Boks off or without cpr/cvr, a method the account lacks, nothing to sign", () => {
    const problems = codes(
      { ...draft, expireAt: new Date(now.getTime() - 1000) },
      [
        signer({ email: null }),
        signer({ channel: "eboks", email: null }),
        signer({ secureSigningMethods: ["mitid.dk", "bankid_se"] }),
        signer({ role: "Witness" }),
      ],
      [{ signable: true, roles: ["Signer"] }],
      account,
      { mails: true, now },
    );
    expect(problems).toEqual([
      "expireAt:expired",
      "signers[0].email:no_email",
      "signers[1].channel:eboks_disabled",
      "signers[1]:eboks_identifier_required",
      "signers[2].secureSigningMethods:method_not_enabled",
      "signers[3].role:signer_without_document",
    ]);
  });

  it("an activation mails nobody, and neither does a meeting: addresses do not matter to them", () => {
    const unreachable = [signer({ email: null }), signer({ channel: "eboks", email: null })];
    expect(codes(draft, unreachable, docs, account, { mails: false, now })).toEqual([]);
    expect(codes({ ...draft, signOnMeeting: true }, unreachable, docs, account, { mails: true, now })).toEqual([]);
  });

  it("deleted signers take no part; with none left there is no one to send to", () => {
    expect(codes(draft, [signer({ status: SIGNER_STATUS.deleted, email: null })], docs, account, { mails: true, now })).toEqual(["signers:no_signer"]);
  });
});
