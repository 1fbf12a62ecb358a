import { createLogger, redact, scrubString, withLogContext } from "../src";

const MESSAGE = Symbol.for("message");

/** A JSON logger whose output lines are collected instead of written. */
function capturedLogger() {
  const logger = createLogger({ service: "redaction-test", format: "json", level: "debug" });
  for (const t of logger.transports) t.silent = true;
  const lines: string[] = [];
  logger.on("data", (info: Record<string | symbol, unknown>) => lines.push(String(info[MESSAGE])));
  return { logger, lines };
}

const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiIsImNpZCI6MX0.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtYWJjZGVm";
const SIGNING_TOKEN = "Qm9vbS1ib29tLXNpZ25pbmctdG9rZW4tMzItYnl0ZXM"; // 43 chars, like a real one
const SECRET = "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3I";

describe("redact: keys", () => {
  it("masks tokens, Authorization headers, API and client secrets, encrypted secrets and signatures at any depth", () => {
    const out = redact({
      token: JWT,
      accessToken: JWT,
      headers: { Authorization: `Bearer ${JWT}`, "X-Auth-Token": JWT, "X-Event-Signature": "t=1,v1=abc", "content-type": "application/json" },
      client: { clientId: "cl_public", clientSecret: SECRET, apiKey: "ak_x", apiSecret: SECRET, apiSecretEnc: "enc" },
      subscription: { id: "s1", secretEnc: "iv:ciphertext:tag", secret: "whsec_abc" },
      list: [{ password: "p" }, { digest: "d", nonce: "n" }],
      cookie: "esign_admin_session=abc",
      // biome-ignore lint/suspicious/noExplicitAny: the redacted copy is read at any depth below
    }) as Record<string, any>;
    expect(out.token).toBe("[redacted]");
    expect(out.accessToken).toBe("[redacted]");
    expect(out.headers).toEqual({
      Authorization: "[redacted]",
      "X-Auth-Token": "[redacted]",
      "X-Event-Signature": "[redacted]",
      "content-type": "application/json",
    });
    expect(out.client).toEqual({
      clientId: "cl_public",
      clientSecret: "[redacted]",
      apiKey: "[redacted]",
      apiSecret: "[redacted]",
      apiSecretEnc: "[redacted]",
    });
    expect(out.subscription).toEqual({ id: "s1", secretEnc: "[redacted]", secret: "[redacted]" });
    expect(out.list).toEqual([{ password: "[redacted]" }, { digest: "[redacted]", nonce: "[redacted]" }]);
    expect(out.cookie).toBe("[redacted]");
  });

  it("masks signing evidence (IP address, user agent) under its keys, and not look-alike keys", () => {
    const out = redact({
      ip: "203.0.113.9",
      actionIp: "2001:db8::1",
      userAgent: "Mozilla/5.0",
      "user-agent": "curl/8",
      actionUserAgent: "x",
      recipient: "a@b.c",
      zip: "8000",
    });
    expect(out).toEqual({
      ip: "[redacted]",
      actionIp: "[redacted]",
      userAgent: "[redacted]",
      "user-agent": "[redacted]",
      actionUserAgent: "[redacted]",
      recipient: "a@b.c",
      zip: "8000",
    });
  });

  it("keeps ids, numbers, dates, and bounds cycles", () => {
    const cyclic: Record<string, unknown> = { caseFileId: 3, at: new Date("2025-01-01T00:00:00Z") };
    cyclic.self = cyclic;
    const out = redact(cyclic) as Record<string, unknown>;
    expect(out.caseFileId).toBe(3);
    expect(JSON.stringify(out.at)).toBe('"2025-01-01T00:00:00.000Z"');
    expect(out.self).toBe("[truncated]");
  });
});

describe("redact: inside strings", () => {
  it.each([
    [`signing link https://esign.example/sign/${SIGNING_TOKEN} sent`, "signing link https://esign.example/sign/[redacted] sent"],
    [`GET /sign/${SIGNING_TOKEN}/documents/3 failed`, "GET /sign/[redacted]/documents/3 failed"],
    ["template /sign/:token stays", "template /sign/:token stays"],
    [`pixel /t/${SIGNING_TOKEN}.gif`, "pixel /t/[redacted].gif"],
    [`Authorization: Bearer ${JWT}`, "Authorization: [redacted]"],
    [`sent with bearer ${JWT} attached`, "sent with Bearer [redacted] attached"],
    [`token ${JWT} expired`, "token [redacted] expired"],
    [`{"x-auth-token":"${JWT}"}`, `{"x-auth-token":"[redacted]"}`],
    ["X-Event-Signature: t=1700000000,v1=deadbeef", "X-Event-Signature: [redacted]"],
    ["smtp://mailer:hunter2@mail.example.com:587 refused", "smtp://mailer:[redacted]@mail.example.com:587 refused"],
    ["postgresql://postgres@127.0.0.1:5432/esign", "postgresql://postgres@127.0.0.1:5432/esign"],
    ["callback?code=abc123&state=xyz", "callback?code=[redacted]&state=xyz"],
    [`secret whsec_${SECRET} shown`, "secret whsec_[redacted] shown"],
    ["Basic information about the case file", "Basic information about the case file"],
    // No slash, colon or equals sign in these: the quick pre-check must still let them through to the masks.
    ["login with Basic dXNlcjpwYXNzd29yZDEyMw failed", "login with Basic [redacted] failed"],
    ["sent with bearer opaque_token_1234 attached", "sent with Bearer [redacted] attached"],
    ["plain text with a uuid 3f2a0c1e-aaaa-bbbb-cccc-1234567890ab", "plain text with a uuid 3f2a0c1e-aaaa-bbbb-cccc-1234567890ab"],
  ])("%s", (input, expected) => {
    expect(scrubString(input)).toBe(expected);
    expect(redact({ detail: input })).toEqual({ detail: expected });
  });

  it("scrubs error messages and stacks", () => {
    const err = new Error(`request to /sign/${SIGNING_TOKEN} failed`);
    const out = redact({ err }) as { err: { message: string; stack: string } };
    expect(out.err.message).toBe("request to /sign/[redacted] failed");
    expect(out.err.stack).not.toContain(SIGNING_TOKEN);
  });
});

describe("the logger", () => {
  it("writes no secret, whether passed as metadata, in the message, in an error or through a child", () => {
    const { logger, lines } = capturedLogger();
    logger.info(`signer opened /sign/${SIGNING_TOKEN}`, { headers: { authorization: `Bearer ${JWT}` }, clientSecret: SECRET });
    logger.child({ apiSecret: SECRET }).warn("attempt failed", { "X-Event-Signature": "t=1,v1=ff", url: `https://x.example/hook?token=${SECRET}` });
    logger.error("unhandled", { err: new Error(`Bearer ${JWT} rejected`) });
    const out = lines.join("\n");
    for (const secret of [SIGNING_TOKEN, JWT, SECRET, "v1=ff"]) expect(out).not.toContain(secret);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed[0]).toMatchObject({ message: "signer opened /sign/[redacted]", clientSecret: "[redacted]", service: "redaction-test", level: "info" });
    expect(parsed[1]).toMatchObject({ apiSecret: "[redacted]", "X-Event-Signature": "[redacted]", url: "https://x.example/hook?token=[redacted]" });
  });

  it("adds the surrounding log context to each line, without overriding what the line sets", async () => {
    const { logger, lines } = capturedLogger();
    await withLogContext({ jobId: "j1", queue: "casefile" }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      logger.info("in the job");
      await withLogContext({ caseFileId: 9 }, async () => logger.info("nested", { jobId: "explicit" }));
    });
    logger.info("after");
    const [inJob, nested, after] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(inJob).toMatchObject({ jobId: "j1", queue: "casefile" });
    expect(nested).toMatchObject({ jobId: "explicit", queue: "casefile", caseFileId: 9 });
    expect(after).not.toHaveProperty("jobId");
  });
});
