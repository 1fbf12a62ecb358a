import { createHash, randomBytes } from "node:crypto";
import { keyId } from "@esign/db";
import { closeTestDb, TEST_ENCRYPTION_KEY, testDb } from "../support/api";
import { CLI_TIMEOUT_MS, runCli } from "../support/cli";
import type { ServiceProcess } from "../support/services";
import { startSystem, type System } from "../support/system";

/*
 * The first test runs the CLI as the docs say, `pnpm -s cli ...` in the repository (pnpm, then tsx
 * loading the TypeScript: about 4 s of CPU a run, up to 20 s while the other shards fill both cores);
 * the others run the same code from its bundle (test/support/cli.ts), as the production image does.
 * The bounds are for that loaded machine, not for a hang.
 */
jest.setTimeout(3 * CLI_TIMEOUT_MS);

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { env });

const CREDENTIAL_KEYS = ["customerId", "userId", "clientId", "clientSecret", "apiKey", "apiSecret"];

interface Printed {
  customerId: number;
  userId: number;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  apiSecret: string;
}

let system: System;
let gateway: ServiceProcess;
let printed: Printed;
const name = `CLI customer ${randomBytes(4).toString("hex")}`;

beforeAll(async () => {
  system = await startSystem([]);
  gateway = system.gateway;
});

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

describe("pnpm cli customers create", () => {
  it("prints ONE JSON object with exactly the credential keys and creates the customer, its admin and client", async () => {
    const res = await runCli(["customers", "create", "--name", name, "--eboks", "--secure-methods", "mitid.dk,bankid_se", "--admin-email", "a@b.c"], {
      via: "pnpm",
    });
    expect(res.code).toBe(0);
    expect(res.stderr).not.toMatch(/error/i);
    const lines = res.stdout.split("\n").filter((l) => l.trim() !== "");
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!) as Printed;
    expect(typeof out).toBe("object");
    expect(Object.keys(out).sort()).toEqual([...CREDENTIAL_KEYS].sort());
    expect(out).toEqual({
      customerId: expect.any(Number),
      userId: expect.any(Number),
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      apiKey: expect.any(String),
      apiSecret: expect.any(String),
    });
    printed = out;

    const customer = await testDb().customer.findUniqueOrThrow({ where: { id: out.customerId } });
    expect(customer.name).toBe(name);
    expect(customer.eboksEnabled).toBe(true);
    expect([...customer.secureSigningMethods].sort()).toEqual(["bankid_se", "mitid.dk"]);
    const user = await testDb().user.findUniqueOrThrow({ where: { id: out.userId } });
    // The customer's first user is its admin, never a platform operator.
    expect(user).toMatchObject({ customerId: out.customerId, email: "a@b.c", isAdmin: true, isOperator: false });
    const client = await testDb().apiClient.findFirstOrThrow({ where: { clientId: out.clientId } });
    expect(client).toMatchObject({ customerId: out.customerId, userId: out.userId, apiKey: out.apiKey });
    // Secrets are stored hashed or encrypted, never as printed.
    expect(JSON.stringify(client)).not.toContain(out.clientSecret);
    expect(JSON.stringify(client)).not.toContain(out.apiSecret);
  });

  it("exits non-zero on an unknown secure method, with a message on stderr, nothing on stdout and no row", async () => {
    const badName = `${name} bad`;
    const res = await cli(["customers", "create", "--name", badName, "--secure-methods", "mitid.dk,bankid_xx"]);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe("");
    expect(res.stderr.trim().length).toBeGreaterThan(0);
    expect(res.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect(await testDb().customer.count({ where: { name: badName } })).toBe(0);
  });

  it("grants and revokes the platform-operator role (the queue dashboard) by user id, printing the user", async () => {
    const grant = await cli(["operators", "grant", "--user-id", String(printed.userId)]);
    expect(grant.code).toBe(0);
    expect(JSON.parse(grant.stdout)).toEqual({ customerId: printed.customerId, userId: printed.userId, email: "a@b.c", isOperator: true });
    expect((await testDb().user.findUniqueOrThrow({ where: { id: printed.userId } })).isOperator).toBe(true);
    const revoke = await cli(["operators", "revoke", "--user-id", String(printed.userId)]);
    expect(JSON.parse(revoke.stdout)).toMatchObject({ isOperator: false });
    expect((await testDb().user.findUniqueOrThrow({ where: { id: printed.userId } })).isOperator).toBe(false);
    const missing = await cli(["operators", "grant"]);
    expect(missing.code).not.toBe(0);
    expect(missing.stdout).toBe("");
  });

  it("exits non-zero without --name, with nothing on stdout", async () => {
    const res = await cli(["customers", "create", "--eboks"]);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe("");
    expect(res.stderr).toMatch(/--name/);
  });
});

/** The api_keys grant's body for the printed credentials (the digest over a fresh nonce). */
function apiKeysGrant(): Record<string, unknown> {
  const rawNonce = randomBytes(16);
  const createdAt = new Date().toISOString();
  const digest = createHash("sha1")
    .update(Buffer.concat([rawNonce, Buffer.from(createdAt), Buffer.from(printed.apiSecret)]))
    .digest("base64");
  return {
    grant_type: "api_keys",
    client_id: printed.clientId,
    client_secret: printed.clientSecret,
    key: printed.apiKey,
    created_at: createdAt,
    nonce: rawNonce.toString("base64"),
    digest,
  };
}

describe("the printed credentials against a running gateway", () => {
  const token = async (body: Record<string, unknown>, url = gateway.url) => {
    const res = await fetch(`${url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { access_token: string; token_type: string } };
  };

  const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8")) as { sub: string; cid: number };

  it("obtain a token with client_credentials, bound to the new customer and user", async () => {
    expect(printed).toBeDefined();
    const res = await token({ grant_type: "client_credentials", client_id: printed.clientId, client_secret: printed.clientSecret });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe("Bearer");
    expect(claims(res.body.access_token)).toMatchObject({ sub: String(printed.userId), cid: printed.customerId });
    // The token is accepted: an unknown case file is 404, not 401.
    const read = await fetch(`${gateway.url}/send/api/v1/casefiles/2000000000`, { headers: { "X-Auth-Token": res.body.access_token } });
    expect(read.status).toBe(404);
  });

  it("obtain a token with the api_keys grant", async () => {
    const res = await token(apiKeysGrant());
    expect(res.status).toBe(200);
    expect(claims(res.body.access_token)).toMatchObject({ sub: String(printed.userId), cid: printed.customerId });
  });

  it("pnpm cli secrets reencrypt: after a rotation of ENCRYPTION_KEY the old key can go (docs/operating.md)", async () => {
    const oldKey = TEST_ENCRYPTION_KEY;
    const newKey = randomBytes(32).toString("hex");
    // Step 2 and 3 of the rotation: the new key, the old one still read; everything rewritten.
    const rotated = await cli(["secrets", "reencrypt"], { ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_PREVIOUS: oldKey });
    expect([rotated.code, rotated.stderr]).toEqual([0, ""]);
    const out = JSON.parse(rotated.stdout) as { reencrypted: Record<string, number>; keyId: string };
    expect(out.keyId).toBe(keyId(newKey));
    expect(out.reencrypted["ApiClient.apiSecretEnc"]).toBeGreaterThanOrEqual(1);
    const client = await testDb().apiClient.findFirstOrThrow({ where: { clientId: printed.clientId } });
    expect(client.apiSecretEnc.startsWith(`v2.${keyId(newKey)}.`)).toBe(true);
    // Step 4: a gateway with the new key alone still reads the API secret (the api_keys grant needs it).
    const rotatedGateway = await system.start("api-gateway", { ENCRYPTION_KEY: newKey });
    try {
      const res = await token(apiKeysGrant(), rotatedGateway.url);
      expect(res.status).toBe(200);
      // A second run finds nothing left to rewrite.
      const again = await cli(["secrets", "reencrypt"], { ENCRYPTION_KEY: newKey });
      expect(JSON.parse(again.stdout)).toEqual({ reencrypted: {}, keyId: keyId(newKey) });
    } finally {
      await rotatedGateway.stop();
      // Back to the run's key: later files of this shard share the database.
      const back = await cli(["secrets", "reencrypt"], { ENCRYPTION_KEY: oldKey, ENCRYPTION_KEYS_PREVIOUS: newKey });
      expect(back.code).toBe(0);
    }
    expect((await token(apiKeysGrant())).status).toBe(200);
  }); // several pnpm cli runs and a gateway start: the file-wide bound above
});
