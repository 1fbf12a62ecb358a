import { openPayloadIds, payloadIdsCurrent, sealPayloadIds, ZCaseFile, type TCaseFile } from "../src";

// CreationJob.payload (kept 14 days) holds the signers' national ids encrypted (issue 26). The cipher
// is the caller's: here a reversible stand-in that marks which key "encrypted" a value.
const encrypt = (key: string) => (plain: string) => `${key}:${Buffer.from(plain).toString("base64url")}`;
const decrypt = (enc: string) => Buffer.from(enc.split(":")[1]!, "base64url").toString();

const caseFile: TCaseFile = ZCaseFile.parse({
  title: "Contract",
  signers: [
    { name: "Carl", channel: "eboks", cpr: "2405791357" },
    { name: "Alice", email: "alice@example.com", socialSecurityNumberPlain: "1103827531", ssnType: "dk:cpr", accessControl: true },
    { name: "Bob", email: "bob@example.com", socialSecurityNumberPlain: "" },
  ],
  documents: [{ title: "Contract", name: "contract.pdf" }],
});

describe("sealPayloadIds / openPayloadIds", () => {
  it("keeps no national id in clear, and gives the worker back exactly what the gateway validated", () => {
    const sealed = sealPayloadIds(caseFile, encrypt("k1"));
    const text = JSON.stringify(sealed);
    expect(text).not.toContain("2405791357");
    expect(text).not.toContain("1103827531");
    const signers = sealed.signers as Record<string, unknown>[];
    expect(signers.map((s) => [s.cpr, s.cprEnc, s.socialSecurityNumberPlain, s.socialSecurityNumberEnc])).toEqual([
      [undefined, encrypt("k1")("2405791357"), undefined, undefined],
      [undefined, undefined, undefined, encrypt("k1")("1103827531")],
      [undefined, undefined, undefined, undefined],
    ]);
    const opened = ZCaseFile.parse(openPayloadIds(JSON.parse(text), decrypt));
    expect(opened.signers.map((s) => [s.cpr, s.socialSecurityNumberPlain])).toEqual([
      ["2405791357", undefined],
      [undefined, "1103827531"],
      [undefined, undefined],
    ]);
    expect({ ...opened, signers: opened.signers.map(({ socialSecurityNumberPlain: _, ...s }) => s) }).toEqual({
      ...caseFile,
      signers: caseFile.signers.map(({ socialSecurityNumberPlain: _, ...s }) => s),
    });
  });

  it("reads a payload stored before the sealing as it is, and says what secrets reencrypt must rewrite", () => {
    const clear = JSON.parse(JSON.stringify(caseFile)) as unknown;
    expect(openPayloadIds(clear, decrypt)).toEqual(clear);
    const current = (enc: string) => enc.startsWith("k2:");
    expect(payloadIdsCurrent(clear, current)).toBe(false);
    expect(payloadIdsCurrent(sealPayloadIds(caseFile, encrypt("k1")), current)).toBe(false);
    expect(payloadIdsCurrent(sealPayloadIds(caseFile, encrypt("k2")), current)).toBe(true);
    // Re-sealing a stored payload leaves its encrypted ids as they are.
    const resealed = sealPayloadIds(sealPayloadIds(caseFile, encrypt("k1")), encrypt("k2"));
    expect((resealed.signers as Record<string, unknown>[])[0]!.cprEnc).toBe(encrypt("k1")("2405791357"));
    expect(payloadIdsCurrent("not a payload", current)).toBe(true);
  });
});
