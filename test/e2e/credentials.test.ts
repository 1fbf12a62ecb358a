import { createApiClient, createUser, type CustomerCredentials } from "@esign/accounts";
import { EsignApiError, EsignClient } from "@esign/sdk";
import { TEST_ENCRYPTION_KEY, closeTestDb, getToken, newCustomer, testDb } from "../support/api";
import { runCli } from "../support/cli";
import { eventually } from "../support/eventually";
import { readmeWsseHeaders } from "../support/penneo-clients";
import { startService, type ServiceProcess } from "../support/services";

/*
 * Credentials revoked and rotated (issue 26, item 11): by a customer's admins through the API (and
 * the SDK's client.apiCredentials), by platform teams with the CLI; revocation reaches the access
 * tokens already issued within CREDENTIAL_CHECK_CACHE_MS.
 */

let gateway: ServiceProcess;
let admin: CustomerCredentials;

const tokenOf = (clientId: string, clientSecret: string) =>
  fetch(`${gateway.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
const listWith = (token: string) => fetch(`${gateway.url}/api/v3/casefiles`, { headers: { "X-Auth-Token": token } });
const sdkFor = (c: { clientId: string; clientSecret: string }) => new EsignClient({ baseUrl: gateway.url, credentials: c });

beforeAll(async () => {
  gateway = await startService("api-gateway", { CREDENTIAL_CHECK_CACHE_MS: "500" });
  admin = await newCustomer();
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await closeTestDb();
});

describe("/api/v3/credentials and client.apiCredentials", () => {
  it("lists without secrets, makes one with its secrets once, rotates it: old secrets and tokens stop working", async () => {
    const sdk = sdkFor(admin);
    const [first] = await sdk.apiCredentials.list();
    // lastUsedAt: the token the SDK just got is recorded on the side, so it may still be null here.
    expect(first).toMatchObject({
      id: expect.any(Number),
      clientId: admin.clientId,
      apiKey: admin.apiKey,
      userId: admin.userId,
      createdAt: expect.any(String),
      revokedAt: null,
    });
    expect(Object.keys(first!).sort()).toEqual(["apiKey", "clientId", "createdAt", "id", "lastUsedAt", "revokedAt", "userId"]);
    expect(JSON.stringify(await sdk.apiCredentials.list())).not.toContain(admin.clientSecret);

    const made = await sdk.apiCredentials.create();
    expect(made).toEqual({
      id: expect.any(Number),
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      apiKey: expect.any(String),
      apiSecret: expect.any(String),
      createdAt: expect.any(String),
    });
    const before = ((await (await tokenOf(made.clientId, made.clientSecret)).json()) as { access_token: string }).access_token;
    expect((await listWith(before)).status).toBe(200);

    const rotated = await sdk.apiCredentials.rotate(made.id);
    expect({ id: rotated.id, clientId: rotated.clientId, apiKey: rotated.apiKey }).toEqual({ id: made.id, clientId: made.clientId, apiKey: made.apiKey });
    expect(rotated.clientSecret).not.toBe(made.clientSecret);
    expect((await tokenOf(made.clientId, made.clientSecret)).status).toBe(401);
    expect((await fetch(`${gateway.url}/api/v3/casefiles`, { headers: readmeWsseHeaders(made.apiKey, made.apiSecret) })).status).toBe(401);
    await eventually(async () => (await listWith(before)).status === 401, 10_000);
    const after = ((await (await tokenOf(rotated.clientId, rotated.clientSecret)).json()) as { access_token: string }).access_token;
    expect((await listWith(after)).status).toBe(200);
    expect((await fetch(`${gateway.url}/api/v3/casefiles`, { headers: readmeWsseHeaders(rotated.apiKey, rotated.apiSecret) })).status).toBe(200);
  });

  it("revokes one: its secrets, its access tokens (within seconds), refresh tokens and WSSE stop working", async () => {
    const sdk = sdkFor(admin);
    const made = await sdk.apiCredentials.create();
    const issued = (await (await tokenOf(made.clientId, made.clientSecret)).json()) as { access_token: string };
    expect((await listWith(issued.access_token)).status).toBe(200);
    await sdk.apiCredentials.revoke(made.id);
    await eventually(async () => (await listWith(issued.access_token)).status === 401, 10_000);
    expect((await tokenOf(made.clientId, made.clientSecret)).status).toBe(401);
    expect((await fetch(`${gateway.url}/api/v3/casefiles`, { headers: readmeWsseHeaders(made.apiKey, made.apiSecret) })).status).toBe(401);
    const listed = (await sdk.apiCredentials.list()).find((c) => c.id === made.id);
    expect(listed?.revokedAt).toEqual(expect.any(String));
    // Revoking again changes nothing; rotating a revoked one is a conflict.
    await sdk.apiCredentials.revoke(made.id);
    await expect(sdk.apiCredentials.rotate(made.id)).rejects.toMatchObject({ status: 409 });
  });

  it("is for the customer's admins only, and another customer's credential is a 404", async () => {
    const db = testDb();
    const user = await createUser(db, admin.customerId, "clerk@example.com", "Clerk", false);
    const clerk = await createApiClient(db, admin.customerId, user.id, TEST_ENCRYPTION_KEY);
    const refused = await sdkFor(clerk)
      .apiCredentials.list()
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(EsignApiError);
    expect(refused).toMatchObject({ status: 403 });
    const other = await newCustomer();
    const [theirs] = await sdkFor(other).apiCredentials.list();
    await expect(sdkFor(admin).apiCredentials.revoke(theirs!.id)).rejects.toMatchObject({ status: 404 });
    expect((await getToken(gateway.url, other)).length).toBeGreaterThan(0);
  });
});

describe("pnpm cli credentials", () => {
  it("lists, rotates and revokes; the revoked credential's token stops working", async () => {
    const c = await newCustomer();
    const token = await getToken(gateway.url, c);
    const listed = await runCli(["credentials", "list", "--customer-id", String(c.customerId)]);
    expect(listed.code).toBe(0);
    const [row] = JSON.parse(listed.stdout) as { id: number; clientId: string }[];
    expect(row?.clientId).toBe(c.clientId);
    const rotated = await runCli(["credentials", "rotate", "--id", String(row!.id)]);
    expect(rotated.code).toBe(0);
    const secrets = JSON.parse(rotated.stdout) as { clientSecret: string };
    expect((await tokenOf(c.clientId, secrets.clientSecret)).status).toBe(200);
    await eventually(async () => (await listWith(token)).status === 401, 10_000);
    const revoked = await runCli(["credentials", "revoke", "--id", String(row!.id)]);
    expect(revoked.code).toBe(0);
    expect((await tokenOf(c.clientId, secrets.clientSecret)).status).toBe(401);
  }, 240_000);
});
