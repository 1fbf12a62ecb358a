import { parseSignatureHeader } from "../src";

describe("parseSignatureHeader", () => {
  it("parses t, h and v1 and keeps unknown components", () => {
    const result = parseSignatureHeader("t=1700000000, h=X-Event-Id x-event-type ,v1=ABCDEF,v0=legacy");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.header.timestamp).toBe(1_700_000_000);
    expect(result.header.signedHeaders).toBe("X-Event-Id x-event-type");
    expect(result.header.signedHeaderNames).toEqual(["x-event-id", "x-event-type"]);
    expect(result.header.signature).toBe("abcdef");
    expect(result.header.components.get("v0")).toBe("legacy");
  });

  it("keeps every v1 of a rotation in order; signature is the first", () => {
    const result = parseSignatureHeader("t=1,h=x-event-id x-event-type,v1=AB,v1=cd");
    expect(result).toMatchObject({ ok: true, header: { signature: "ab", signatures: ["ab", "cd"] } });
  });

  it.each([
    ["t=1,h=x-event-id x-event-type", "missing_component"],
    ["h=x-event-id,v1=ab", "missing_component"],
    ["t=1,v1=ab", "missing_component"],
    ["", "malformed_signature"],
    ["t", "malformed_signature"],
    ["=1,h=a,v1=ab", "malformed_signature"],
    ["t=,h=a,v1=ab", "malformed_signature"],
    ["t=-1,h=a,v1=ab", "malformed_signature"],
    ["t=1.5,h=a,v1=ab", "malformed_signature"],
    ["t=1,h=a:b,v1=ab", "malformed_signature"],
    ["t=1,h=a,v1=zz", "malformed_signature"],
    ["t=1,h=a,t=2,v1=cd", "malformed_signature"],
    ["t=1,h=a,v1=ab,v1=zz", "malformed_signature"],
  ])("rejects %j as %s", (value, reason) => {
    expect(parseSignatureHeader(value)).toEqual({ ok: false, reason, message: expect.any(String) });
  });

  it("treats undefined as malformed", () => {
    expect(parseSignatureHeader(undefined)).toMatchObject({ ok: false, reason: "malformed_signature" });
  });
});
