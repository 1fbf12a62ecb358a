import { createCustomer } from "@esign/accounts";
import { TEST_ENCRYPTION_KEY, getToken } from "../support/api";
import { eventually } from "../support/eventually";
import { makePdf } from "../support/pdf";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { createCase, postJson } from "../support/signing-api";
import { startSystem, type System } from "../support/system";
import { createWorld, type World } from "../support/webhook-world";

/*
 * The outbox relay is the system's spine: its events advance case files, send signing requests and
 * start finalization. It runs in the casefile-worker as well as in the webhook-dispatcher, so that
 * stopping webhook delivery cannot stop signing. Here no dispatcher runs at all: two rounds, two
 * signing requests by mail, finalization; the events wanted by subscriptions wait in the events
 * queue for a dispatcher.
 */
let system: System;
let world: World;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  world = await createWorld("no_dispatcher");
  system = await startSystem(["casefile-worker", "notifier"], world.env({ SMTP_URL: smtp.url }));
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await smtp?.stop();
  await world?.close();
});

it("signs a two-round case file to completion while no webhook-dispatcher runs", async () => {
  const creds = await createCustomer(world.db, { name: "No dispatcher", adminEmail: "owner@example.com" }, TEST_ENCRYPTION_KEY);
  const token = await getToken(system.gateway.url, creds);
  const journey = await createCase(
    system.gateway.url,
    token,
    {
      caseFile: {
        title: "Lease",
        signers: [
          { name: "Alice", email: "alice@example.com", role: "Tenant", signOrder: 0, enableInsecureSigning: true, insecureSigningMethods: ["text"] },
          { name: "Bob", email: "bob@example.com", role: "Landlord", signOrder: 1, enableInsecureSigning: true, insecureSigningMethods: ["text"] },
        ],
        documents: [{ title: "Lease", name: "lease.pdf" }],
      },
    },
    [{ name: "lease.pdf", content: await makePdf("Lease") }],
  );

  await smtp.waitFor((m) => m.to.includes("alice@example.com"));
  expect((await postJson(`${journey.links.Alice!.url}/sign`, { method: "text", value: "Alice" })).status).toBe(200);
  // Round 2 needs the relay: Alice's signed event advances the case file, which activates Bob.
  await smtp.waitFor((m) => m.to.includes("bob@example.com"));
  expect((await postJson(`${journey.links.Bob!.url}/sign`, { method: "text", value: "Bob" })).status).toBe(200);
  await eventually(async () => (await world.db.caseFile.findUniqueOrThrow({ where: { id: journey.caseFileId } })).status === 5);
  // Every event of the case file was relayed, by the casefile-worker.
  await eventually(async () => (await world.db.event.count({ where: { relayedAt: null } })) === 0);
});
