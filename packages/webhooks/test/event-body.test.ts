import type { Event } from "@esign/db";
import { buildEventBody, formatEventDate } from "../src/event-body";
import { newSubscriptionSecret } from "../src/subscription-secret";

const event = (over: Partial<Event> = {}): Event => ({
  id: "6f1c2f9e-5d7a-4d8e-9a51-0b7f3c1e2a44",
  seq: 1n,
  customerId: 1,
  topic: "signer",
  eventType: "sign.signer.requestActivated",
  payload: { id: 12, caseFile: { id: 7, status: 1 } },
  occurredAt: new Date("2026-03-04T05:06:07.089Z"),
  relayedAt: null,
  targetSubscriptionId: null,
  ...over,
});

describe("event body", () => {
  it("formats eventTime as YYYY-MM-DD HH:MM:SS.ffffff in UTC (microseconds)", () => {
    expect(formatEventDate(new Date("2026-03-04T05:06:07.089Z"))).toBe("2026-03-04 05:06:07.089000");
    expect(formatEventDate(new Date("1999-12-31T23:59:59.999Z"))).toBe("1999-12-31 23:59:59.999000");
    expect(formatEventDate(new Date("2026-01-01T00:00:00.000Z"))).toBe("2026-01-01 00:00:00.000000");
    expect(formatEventDate(new Date("2026-06-01T00:00:00.5+02:00"))).toBe("2026-05-31 22:00:00.500000");
    expect(() => formatEventDate(new Date("nope"))).toThrow(RangeError);
  });

  it("has the contract's shape and key order, with the stored payload; eventType is the name within the topic (Penneo's SDK docs)", () => {
    const body = buildEventBody(event());
    expect(body).toBe(
      '{"topic":"signer","eventType":"requestActivated",' +
        '"eventTime":{"date":"2026-03-04 05:06:07.089000","timezone_type":3,"timezone":"UTC"},' +
        '"payload":{"id":12,"caseFile":{"id":7,"status":1}}}',
    );
    expect(JSON.parse(body)).toEqual({
      topic: "signer",
      eventType: "requestActivated",
      eventTime: { date: "2026-03-04 05:06:07.089000", timezone_type: 3, timezone: "UTC" },
      payload: { id: 12, caseFile: { id: 7, status: 1 } },
    });
  });

  it("splits every event type of the spec into its topic and name: sign.casefile.completed is casefile + completed", () => {
    const parts = (eventType: string) => {
      const b = JSON.parse(buildEventBody(event({ eventType })));
      return `${b.topic} ${b.eventType}`;
    };
    expect(parts("sign.casefile.completed")).toBe("casefile completed");
    expect(parts("sign.signer.signedWithImageUploadAndNAP")).toBe("signer signedWithImageUploadAndNAP");
    expect(parts("webhook.subscription.test")).toBe("subscription test");
    // A stored type this version does not know is a bug, not a body to guess.
    expect(() => buildEventBody(event({ eventType: "sign.unknown" }))).toThrow();
  });

  it("carries a text payload as a JSON string (the test event) and is the same bytes every time", () => {
    const e = event({ topic: "subscription", eventType: "webhook.subscription.test", payload: "This is a test event." });
    expect(JSON.parse(buildEventBody(e)).payload).toBe("This is a test event.");
    expect(buildEventBody(e)).toBe(buildEventBody({ ...e }));
  });
});

describe("subscription secret", () => {
  it("is whsec_ + 32 random bytes in base64url", () => {
    const a = newSubscriptionSecret();
    const b = newSubscriptionSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(6), "base64url")).toHaveLength(32);
    expect(a).not.toBe(b);
  });
});
