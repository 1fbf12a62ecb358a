import { createHmac } from "node:crypto";
import { MemoryEventIdStore, signDelivery, verifyWebhook, type EventIdStore, type VerifyResult } from "../src";

const SECRET = "whsec_test_secret";
const NOW = 1_700_000_000;
const BODY = JSON.stringify({
  topic: "casefile",
  eventType: "completed",
  eventTime: { date: "2023-11-14 22:13:20.000000", timezone_type: 3, timezone: "UTC" },
  payload: { id: 42, status: 5 },
});

function deliveryHeaders(eventId = "evt-1"): Record<string, string> {
  return { "x-event-id": eventId, "x-event-type": "sign.casefile.completed", "content-type": "application/json" };
}

function signedHeaders(options: { eventId?: string; timestamp?: number; secret?: string; body?: string } = {}): Record<string, string> {
  const headers = deliveryHeaders(options.eventId);
  const signature = signDelivery({
    secret: options.secret ?? SECRET,
    body: options.body ?? BODY,
    headers,
    timestamp: options.timestamp ?? NOW,
  });
  return { ...headers, "x-event-signature": signature };
}

function expectFailure(result: VerifyResult, reason: string): void {
  expect(result).toEqual({ ok: false, reason, message: expect.any(String) });
}

describe("signDelivery", () => {
  it("produces t, h and v1 over the documented signed string", () => {
    const value = signDelivery({ secret: SECRET, body: BODY, headers: deliveryHeaders(), timestamp: NOW });
    const expected = createHmac("sha256", SECRET).update(`${NOW}.x-event-id x-event-type.evt-1.sign.casefile.completed.${BODY}`).digest("hex");
    expect(value).toBe(`t=${NOW},h=x-event-id x-event-type,v1=${expected}`);
  });

  it("signs extra headers in the given order, looked up case-insensitively", () => {
    const headers = { "X-Event-Id": "evt-9", "X-EVENT-TYPE": "sign.signer.signed", "Content-Type": "application/json" };
    const value = signDelivery({
      secret: SECRET,
      body: BODY,
      headers,
      timestamp: NOW,
      signedHeaders: ["X-Event-Type", "x-event-id", "content-type"],
    });
    const expected = createHmac("sha256", SECRET)
      .update(`${NOW}.x-event-type x-event-id content-type.sign.signer.signed.evt-9.application/json.${BODY}`)
      .digest("hex");
    expect(value).toBe(`t=${NOW},h=x-event-type x-event-id content-type,v1=${expected}`);
  });

  it("defaults the timestamp to now in seconds", () => {
    const before = Math.floor(Date.now() / 1000);
    const value = signDelivery({ secret: SECRET, body: BODY, headers: deliveryHeaders() });
    const t = Number(/^t=(\d+),/.exec(value)?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it("refuses to sign without the required headers", () => {
    expect(() => signDelivery({ secret: SECRET, body: BODY, headers: { "x-event-type": "t" } })).toThrow(TypeError);
    expect(() => signDelivery({ secret: SECRET, body: BODY, headers: deliveryHeaders(), signedHeaders: ["x-event-type"] })).toThrow(/x-event-id/);
    expect(() => signDelivery({ secret: "", body: BODY, headers: deliveryHeaders() })).toThrow(TypeError);
  });
});

describe("verifyWebhook", () => {
  it("accepts a signed delivery (round trip)", async () => {
    const result = await verifyWebhook({ secret: SECRET, rawBody: BODY, headers: signedHeaders(), now: NOW });
    expect(result).toEqual({ ok: true, eventId: "evt-1", eventType: "sign.casefile.completed", timestamp: NOW });
  });

  it("accepts with the default clock", async () => {
    const headers = signedHeaders({ timestamp: Math.floor(Date.now() / 1000) });
    const result = await verifyWebhook({ secret: SECRET, rawBody: BODY, headers });
    expect(result.ok).toBe(true);
  });

  it("accepts a Buffer body, including non-ASCII bytes", async () => {
    const body = JSON.stringify({ topic: "webhook", eventType: "test", payload: "héllo ✓" });
    const headers = signedHeaders({ body });
    const result = await verifyWebhook({ secret: SECRET, rawBody: Buffer.from(body, "utf8"), headers, now: NOW });
    expect(result.ok).toBe(true);
  });

  it("accepts a Buffer-signed body verified as a string", async () => {
    const headers = deliveryHeaders();
    const signature = signDelivery({ secret: SECRET, body: Buffer.from(BODY), headers, timestamp: NOW });
    const result = await verifyWebhook({
      secret: SECRET,
      rawBody: BODY,
      headers: { ...headers, "x-event-signature": signature },
      now: NOW,
    });
    expect(result.ok).toBe(true);
  });

  it("looks headers up case-insensitively and accepts array values", async () => {
    const lower = signedHeaders();
    const headers = {
      "X-Event-Id": lower["x-event-id"],
      "X-EVENT-TYPE": [lower["x-event-type"] ?? ""],
      "X-Event-Signature": lower["x-event-signature"],
    };
    const result = await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: new Date(NOW * 1000) });
    expect(result).toMatchObject({ ok: true, eventId: "evt-1", eventType: "sign.casefile.completed" });
  });

  it("accepts any secret of a rotation array", async () => {
    const headers = signedHeaders({ secret: "new-secret" });
    const result = await verifyWebhook({ secret: ["old-secret", "new-secret"], rawBody: BODY, headers, now: NOW });
    expect(result.ok).toBe(true);
    const none = await verifyWebhook({ secret: ["old-secret", "other"], rawBody: BODY, headers, now: NOW });
    expectFailure(none, "signature_mismatch");
  });

  it("accepts a rotation's two v1 entries with either secret alone, and with neither refuses", async () => {
    const headers = deliveryHeaders();
    const signature = signDelivery({ secret: ["old-secret", "new-secret"], body: BODY, headers, timestamp: NOW });
    const v1 = (secret: string) => createHmac("sha256", secret).update(`${NOW}.x-event-id x-event-type.evt-1.sign.casefile.completed.${BODY}`).digest("hex");
    // Penneo's format with one more v1: the old secret's first, so a receiver reading one v1 still passes until it switches.
    expect(signature).toBe(`t=${NOW},h=x-event-id x-event-type,v1=${v1("old-secret")},v1=${v1("new-secret")}`);
    const signed = { ...headers, "x-event-signature": signature };
    for (const secret of ["old-secret", "new-secret", ["new-secret"], ["other", "old-secret"]]) {
      expect((await verifyWebhook({ secret, rawBody: BODY, headers: signed, now: NOW })).ok).toBe(true);
    }
    expectFailure(await verifyWebhook({ secret: "other", rawBody: BODY, headers: signed, now: NOW }), "signature_mismatch");
  });

  it("rejects a tampered body", async () => {
    const result = await verifyWebhook({ secret: SECRET, rawBody: `${BODY} `, headers: signedHeaders(), now: NOW });
    expectFailure(result, "signature_mismatch");
  });

  it("rejects a tampered signed header", async () => {
    const headers = { ...signedHeaders(), "x-event-type": "sign.casefile.failed" };
    expectFailure(await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW }), "signature_mismatch");
  });

  it("rejects a wrong secret", async () => {
    const result = await verifyWebhook({ secret: "wrong", rawBody: BODY, headers: signedHeaders(), now: NOW });
    expectFailure(result, "signature_mismatch");
  });

  it("rejects a v1 of the wrong length without throwing", async () => {
    const headers = signedHeaders();
    const short = (headers["x-event-signature"] ?? "").slice(0, -2);
    const result = await verifyWebhook({ secret: SECRET, rawBody: BODY, headers: { ...headers, "x-event-signature": short }, now: NOW });
    expectFailure(result, "signature_mismatch");
  });

  it("rejects an old timestamp and a future one beyond the tolerance", async () => {
    const headers = signedHeaders();
    expectFailure(await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW + 301 }), "timestamp_out_of_tolerance");
    expectFailure(await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW - 301 }), "timestamp_out_of_tolerance");
    expect((await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW + 300 })).ok).toBe(true);
    expect((await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW - 300 })).ok).toBe(true);
    expectFailure(await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW + 61, toleranceSeconds: 60 }), "timestamp_out_of_tolerance");
  });

  it("checks the timestamp before the signature", async () => {
    const result = await verifyWebhook({ secret: "wrong", rawBody: BODY, headers: signedHeaders(), now: NOW + 1000 });
    expectFailure(result, "timestamp_out_of_tolerance");
  });

  it.each([
    ["t", `h=x-event-id x-event-type,v1=abcd`],
    ["h", `t=${NOW},v1=abcd`],
    ["v1", `t=${NOW},h=x-event-id x-event-type`],
  ])("rejects a signature missing %s", async (_component, value) => {
    const headers = { ...signedHeaders(), "x-event-signature": value };
    expectFailure(await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW }), "missing_component");
  });

  it.each([
    ["garbage", "not a signature"],
    ["empty", ""],
    ["a non-numeric t", `t=soon,h=x-event-id x-event-type,v1=abcd`],
    ["a non-hex v1", `t=${NOW},h=x-event-id x-event-type,v1=xyz`],
    ["a repeated component", `t=${NOW},t=${NOW},h=x-event-id x-event-type,v1=abcd`],
    ["an empty pair", `t=${NOW},,h=x-event-id x-event-type,v1=abcd`],
  ])("rejects a malformed header (%s)", async (_case, value) => {
    const headers = { ...signedHeaders(), "x-event-signature": value };
    expectFailure(await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW }), "malformed_signature");
  });

  it("rejects a signature whose h does not cover x-event-id, even when the HMAC is valid", async () => {
    const h = "x-event-type";
    const v1 = createHmac("sha256", SECRET).update(`${NOW}.${h}.sign.casefile.completed.${BODY}`).digest("hex");
    const headers = { ...deliveryHeaders(), "x-event-signature": `t=${NOW},h=${h},v1=${v1}` };
    const result = await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW });
    expectFailure(result, "malformed_signature");
    expect(result.ok ? "" : result.message).toMatch(/x-event-id/);
  });

  it("rejects a missing X-Event-Id header", async () => {
    const { "x-event-id": _dropped, ...headers } = signedHeaders();
    expectFailure(await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW }), "missing_header");
  });

  it("rejects a missing X-Event-Signature header", async () => {
    const { "x-event-signature": _dropped, ...headers } = signedHeaders();
    expectFailure(await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW }), "missing_header");
  });

  it("rejects a replayed event id with the same store", async () => {
    const store = new MemoryEventIdStore();
    const headers = signedHeaders({ eventId: "evt-replay" });
    const first = await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW, eventIdStore: store });
    expect(first.ok).toBe(true);
    const second = await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW + 1, eventIdStore: store });
    expectFailure(second, "replayed_event");
    // A retry of the same event, freshly signed, is still the same event id.
    const retry = signedHeaders({ eventId: "evt-replay", timestamp: NOW + 5 });
    const third = await verifyWebhook({ secret: SECRET, rawBody: BODY, headers: retry, now: NOW + 5, eventIdStore: store });
    expectFailure(third, "replayed_event");
  });

  it("consults the store only after steps 1-3 pass, with a TTL covering the replay window", async () => {
    const calls: Array<[string, number]> = [];
    const store: EventIdStore = {
      async markIfNew(eventId, ttlSeconds) {
        calls.push([eventId, ttlSeconds]);
        return true;
      },
    };
    const headers = signedHeaders({ eventId: "evt-order" });
    await verifyWebhook({ secret: "wrong", rawBody: BODY, headers, now: NOW, eventIdStore: store });
    await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW + 999, eventIdStore: store });
    await verifyWebhook({ secret: SECRET, rawBody: BODY, headers: { ...headers, "x-event-signature": "bad" }, now: NOW, eventIdStore: store });
    expect(calls).toEqual([]);
    await verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: NOW, eventIdStore: store });
    expect(calls).toEqual([["evt-order", 600]]);
  });

  it("propagates a store failure as a rejected promise", async () => {
    const store: EventIdStore = {
      markIfNew() {
        throw new Error("redis down");
      },
    };
    await expect(verifyWebhook({ secret: SECRET, rawBody: BODY, headers: signedHeaders(), now: NOW, eventIdStore: store })).rejects.toThrow("redis down");
  });

  it("throws on invalid options rather than accepting", async () => {
    const headers = signedHeaders();
    await expect(verifyWebhook({ secret: [], rawBody: BODY, headers, now: NOW })).rejects.toThrow(TypeError);
    await expect(verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: Number.NaN })).rejects.toThrow(TypeError);
    await expect(verifyWebhook({ secret: SECRET, rawBody: BODY, headers, now: new Date("nope") })).rejects.toThrow(TypeError);
  });
});
