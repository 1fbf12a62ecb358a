import { createCipheriv, randomBytes, randomUUID } from "node:crypto";
import { decryptSecret, encryptSecret, isEncryptedWith, keyId, reencryptSecrets } from "../src";
import { TEST_ENCRYPTION_KEY } from "../../../test/support/api";
import { createWorld, type World } from "../../../test/support/webhook-world";

/*
 * `pnpm migrate`'s step after the migration that renamed Signer.cpr / socialSecurityNumber (the
 * numbers stored before it are still clear), and `pnpm cli secrets reencrypt` after a rotation of
 * ENCRYPTION_KEY: every encrypted value ends under the new key, readable without the old one.
 */
let world: World;
beforeAll(async () => {
  world = await createWorld("reencrypt");
});
afterAll(async () => world?.close());

const OLD = TEST_ENCRYPTION_KEY;
const NEW = randomBytes(32).toString("hex");
const CPR = "2405791357";
const SSN = "1103827531";
const EID = "0101901234";

/** The older form without a key id, as encryptSecret wrote it before issue 26. */
function v1(plain: string, keyHex: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(keyHex, "hex"), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

/** A customer with what every encrypted column holds, written before the upgrade and under OLD. */
async function before() {
  const customer = await world.customer(); // its API secret, under OLD
  const sub = await world.subscribe(customer, "https://example.com/hook");
  await world.db.webhookSubscription.update({ where: { id: sub.id }, data: { previousSecretEnc: v1("whsec_previous", OLD) } });
  const cf = await world.db.caseFile.create({ data: { customerId: customer.customerId, userId: customer.userId, title: "Contract" } });
  const notification = {};
  // Before the migration's step: the CPR in clear (the renamed column); the SSN in the v1 form.
  const carl = await world.db.signer.create({ data: { caseFileId: cf.id, name: "Carl", channel: "eboks", cprEnc: CPR, notification } });
  const alice = await world.db.signer.create({
    data: { caseFileId: cf.id, name: "Alice", socialSecurityNumberEnc: v1(SSN, OLD), identityNationalIdEnc: encryptSecret(EID, OLD), notification },
  });
  await world.db.signingLink.create({ data: { signerId: alice.id, tokenHash: randomUUID(), tokenEnc: encryptSecret("link-token", OLD) } });
  await world.db.userInvitation.create({
    data: {
      customerId: customer.customerId,
      email: "x@example.com",
      tokenHash: randomUUID(),
      tokenEnc: encryptSecret("invite-token", OLD),
      expiresAt: new Date(Date.now() + 3600_000),
    },
  });
  const job = await world.db.creationJob.create({
    data: {
      id: randomUUID(),
      customerId: customer.customerId,
      userId: customer.userId,
      payloadHash: "h",
      // A job stored before the payload's numbers were sealed.
      payload: {
        title: "Contract",
        signers: [
          { name: "Carl", channel: "eboks", cpr: CPR },
          { name: "Alice", socialSecurityNumberPlain: SSN },
        ],
      },
      files: [],
      result: { caseFile: { id: cf.id, status: 1 }, signingLinksEnc: encryptSecret("[]", OLD) },
    },
  });
  return { customer, sub, carl, alice, job };
}

describe("reencryptSecrets", () => {
  it("the migrate step encrypts the national ids still clear, and touches nothing else", async () => {
    const { carl, alice } = await before();
    const counts = await reencryptSecrets(world.db, [OLD], { onlyClearIds: true });
    expect(counts).toEqual({ "Signer.cprEnc": 1 });
    const c = await world.db.signer.findUniqueOrThrow({ where: { id: carl.id } });
    expect(isEncryptedWith(c.cprEnc!, OLD)).toBe(true);
    expect(decryptSecret(c.cprEnc!, OLD)).toBe(CPR);
    // The v1 SSN is encrypted already: left for `secrets reencrypt`.
    expect((await world.db.signer.findUniqueOrThrow({ where: { id: alice.id } })).socialSecurityNumberEnc).toBe(alice.socialSecurityNumberEnc);
    expect(await reencryptSecrets(world.db, [OLD], { onlyClearIds: true })).toEqual({});
  });

  it("after a rotation, rewrites every encrypted value under the new key: the old key can then go", async () => {
    const { customer, sub, carl, alice, job } = await before();
    const counts = await reencryptSecrets(world.db, [NEW, OLD]);
    // Every column was rewritten (the first test's rows too, hence at least one each).
    expect(Object.keys(counts).sort()).toEqual([
      "ApiClient.apiSecretEnc",
      "CreationJob.payload",
      "CreationJob.result",
      "Signer.cprEnc",
      "Signer.identityNationalIdEnc",
      "Signer.socialSecurityNumberEnc",
      "SigningLink.tokenEnc",
      "UserInvitation.tokenEnc",
      "WebhookSubscription.previousSecretEnc",
      "WebhookSubscription.secretEnc",
    ]);

    // Everything reads with the new key alone.
    const c = await world.db.signer.findUniqueOrThrow({ where: { id: carl.id } });
    const a = await world.db.signer.findUniqueOrThrow({ where: { id: alice.id } });
    expect([decryptSecret(c.cprEnc!, NEW), decryptSecret(a.socialSecurityNumberEnc!, NEW), decryptSecret(a.identityNationalIdEnc!, NEW)]).toEqual([
      CPR,
      SSN,
      EID,
    ]);
    const link = await world.db.signingLink.findUniqueOrThrow({ where: { signerId: alice.id } });
    expect(decryptSecret(link.tokenEnc, NEW)).toBe("link-token");
    const invitation = await world.db.userInvitation.findFirstOrThrow({ where: { customerId: customer.customerId } });
    expect(decryptSecret(invitation.tokenEnc, NEW)).toBe("invite-token");
    const s = await world.db.webhookSubscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect([decryptSecret(s.secretEnc, NEW), decryptSecret(s.previousSecretEnc!, NEW)]).toEqual([sub.secret, "whsec_previous"]);
    const client = await world.db.apiClient.findFirstOrThrow({ where: { customerId: customer.customerId } });
    expect(decryptSecret(client.apiSecretEnc, NEW)).toBe(customer.apiSecret);
    const j = await world.db.creationJob.findUniqueOrThrow({ where: { id: job.id } });
    const text = JSON.stringify(j.payload);
    expect([text.includes(CPR), text.includes(SSN)]).toEqual([false, false]);
    const signers = (j.payload as { signers: Record<string, string>[] }).signers;
    expect([decryptSecret(signers[0]!.cprEnc!, NEW), decryptSecret(signers[1]!.socialSecurityNumberEnc!, NEW)]).toEqual([CPR, SSN]);
    expect(decryptSecret((j.result as { signingLinksEnc: string }).signingLinksEnc, NEW)).toBe("[]");

    // The old key reads none of it; a second run has nothing left to do.
    expect(() => decryptSecret(c.cprEnc!, OLD)).toThrow(`encrypted with key ${keyId(NEW)}`);
    expect(await reencryptSecrets(world.db, [NEW])).toEqual({});
  });
});
