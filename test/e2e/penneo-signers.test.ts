import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { EsignApiError, EsignClient } from "@esign/sdk";
import { TEST_ENCRYPTION_KEY, getToken } from "../support/api";
import { dotnetWsseHeaders, sendRaw, type RawAnswer } from "../support/penneo-clients";
import { makePdf } from "../support/pdf";
import { createCase, getAs, postJson } from "../support/signing-api";
import { startSmtpSink, type SinkMessage, type SmtpSink } from "../support/smtp-sink";
import { startSystem, type System } from "../support/system";
import { createWorld, eventually, type World } from "../support/webhook-world";

/*
 * Issue 24, part B, through the running gateway, casefile-worker and notifier (mail over real SMTP):
 * signers added, corrected and deleted after creation, signing requests changed, resent and their
 * links read, copy recipients, signOnMeeting, and the event log that tells it all. Each call is made
 * as Penneo's SDKs make it: sdk-php (`Content-type: application/json` on every request, also GET,
 * DELETE and a body-less PATCH; its create/update mapping keys) over OAuth on /api/v1, sdk-net
 * (WSSE, a Content-Type only with a body, `ssnType` and `storeAsContact` always sent) on /api/v3.
 */

let world: World;
let system: System;
let smtp: SmtpSink;
let pdf: Buffer;
let acme: CustomerCredentials;
let other: CustomerCredentials;
let acmeToken: string;
let otherToken: string;

const CREATOR = "creator@acme.example";

beforeAll(async () => {
  // An address that refuses mail for good: its signer becomes undeliverable.
  smtp = await startSmtpSink({ rejectRecipients: [{ match: "bounce@example.com", code: 550, message: "No such user" }] });
  // A database of its own: the relay publishes every unrelayed event of its database, and the
  // notifier would mail for other files' case files.
  world = await createWorld("signers");
  // Low caps, so that the refusals past them are cheap to show.
  system = await startSystem(["casefile-worker", "notifier"], world.env({ SMTP_URL: smtp.url, CASEFILE_MAX_SIGNERS: "3", CASEFILE_MAX_CC_RECIPIENTS: "2" }), {
    JOB_POLL_LIMIT_PER_MINUTE: "0",
  });
  [acme, other, pdf] = await Promise.all([
    createCustomer(world.db, { name: "Acme signers", adminEmail: CREATOR }, TEST_ENCRYPTION_KEY),
    createCustomer(world.db, { name: "Other customer" }, TEST_ENCRYPTION_KEY),
    makePdf("Contract"),
  ]);
  [acmeToken, otherToken] = await Promise.all([getToken(system.gateway.url, acme), getToken(system.gateway.url, other)]);
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await smtp?.stop();
  await world?.close();
});

/** sdk-php (ApiConnector::getDefaultHeaders): `Content-type: application/json` on every request, OAuth on /api/v1. */
const php = (method: string, path: string, body?: unknown, token = acmeToken) =>
  sendRaw(
    system.gateway.url,
    method,
    `/api/v1/${path}`,
    { "Content-type": "application/json", Authorization: `Bearer ${token}`, "User-Agent": "penneo/penneo-sdk-php v:4.0.0 using OAuth" },
    // A body-less PATCH, DELETE goes out empty with its Content-type (fetch sends no body on a GET at all).
    body !== undefined ? JSON.stringify(body) : method === "GET" ? undefined : "",
  );

/** sdk-net (RestSharp): WSSE on /api/v3, a Content-Type only when there is a body. */
const net = (method: string, path: string, body?: unknown, creds = acme, headers: Record<string, string> = {}) =>
  sendRaw(
    system.gateway.url,
    method,
    `/api/v3/${path}`,
    {
      ...dotnetWsseHeaders(creds.apiKey, creds.apiSecret),
      "User-Agent": "Penneo%2Fsdk-net%408.0.1",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body === undefined ? undefined : JSON.stringify(body),
  );

const bodyOf = <T>(a: RawAnswer) => a.json as T;
interface SignerJson {
  sdkClassName: string;
  id: number;
  name: string;
  onBehalfOf: string | null;
  signingRequest: SigningRequestJson;
}
interface SigningRequestJson {
  sdkClassName: string;
  id: number;
  status: number;
  email: string | null;
  emailSubject: string | null;
  reminderInterval: number | null;
  accessControl: boolean;
  enableInsecureSigning: boolean;
  insecureSigningMethods: string[];
}
interface LogJson {
  sdkClassName: string;
  id: number;
  eventType: number;
  eventTime: number;
  event: string;
  actor: string;
  signerId?: number;
  userId?: number;
  ip?: string;
  userAgent?: string;
  detail?: Record<string, unknown>;
}
interface ErrorJson {
  error: string;
  message: string;
  errors?: { path: string; code: string; message: string }[];
}

const errorPaths = (a: RawAnswer) => (bodyOf<ErrorJson>(a).errors ?? []).map((e) => `${e.path}:${e.code}`);

const LINK = /http:\/\/127\.0\.0\.1:\d+\/sign\/[A-Za-z0-9_-]{43}/g;
const linksIn = (m: SinkMessage) => [...new Set(`${m.text}\n${m.html ?? ""}`.match(LINK) ?? [])];

const signer = (name: string, email: string, extra: Record<string, unknown> = {}) => ({
  name,
  email,
  enableInsecureSigning: true,
  insecureSigningMethods: ["text"],
  ...extra,
});

/** A case file made through the real create endpoint (and the worker), as an integrator makes it. */
async function createCaseFile(caseFile: Record<string, unknown>, creds = acmeToken) {
  return createCase(system.gateway.url, creds, { caseFile: { documents: [{ title: "Contract", name: "contract.pdf" }], ...caseFile } }, [
    { name: "contract.pdf", content: pdf },
  ]);
}

async function caseFileStatus(id: number): Promise<number> {
  return (await world.db.caseFile.findUniqueOrThrow({ where: { id } })).status;
}

const signerLog = async (caseFileId: number, signerId: number) => bodyOf<LogJson[]>(await php("GET", `casefiles/${caseFileId}/signers/${signerId}/log`));
const eventsOf = (log: LogJson[]) => log.map((e) => e.event);

/** Signs through the link as a signer's browser does: opens the page, then signs with the typed name. */
async function openAndSign(link: string, name: string): Promise<void> {
  const page = await getAs(link, "application/json", { "User-Agent": "Mozilla/5.0 (signer's browser)" });
  expect(page.status).toBe(200);
  const signed = await postJson(`${link}/sign`, { method: "text", value: name }, { "User-Agent": "Mozilla/5.0 (signer's browser)" });
  expect(signed.status).toBe(200);
}

describe("a draft found by metaData, put in a folder, its signers corrected, sent, resent with a new address, signed, and the log that tells it", () => {
  let caseFileId: number;
  let aliceId: number;
  let bobId: number;
  let aliceLink: string;

  it("corrects a draft's signer (sdk-net PUT) and adds one (sdk-php POST), who gets what a created signer gets", async () => {
    const draft = await createCaseFile({
      title: "Shareholder agreement",
      metaData: "crm-deal-4711",
      // A draft that is to be sent later (its send job waits in the worker): links exist already.
      sendAt: Math.floor(Date.now() / 1000) + 3600,
      signers: [signer("Alise Andersen", "alice-old@example.com", { reminderInterval: 3 })],
    });
    caseFileId = draft.caseFileId;
    aliceId = draft.links["Alise Andersen"]!.signerId;
    expect(draft.status).toBe(0);

    // sdk-net's update mapping: name, plus ssnType ("legacy" by default) and storeAsContact, always.
    const corrected = await net("PUT", `casefiles/${caseFileId}/signers/${aliceId}`, { name: "Alice Andersen", ssnType: "legacy", storeAsContact: false });
    expect(corrected.status).toBe(200);
    expect(bodyOf<SignerJson>(corrected)).toMatchObject({ sdkClassName: "Signer", id: aliceId, name: "Alice Andersen" });

    // sdk-php's create mapping: name and ssnType (storeAsContact only when set); no email on a signer.
    const added = await php("POST", `casefiles/${caseFileId}/signers`, { name: "Bob Berg", ssnType: "legacy" });
    expect(added.status).toBe(201);
    const bob = bodyOf<SignerJson>(added);
    bobId = bob.id;
    // What sdk-php's __fromJson turns into entities: the signer, its signing request.
    expect(bob).toMatchObject({
      sdkClassName: "Signer",
      name: "Bob Berg",
      signingRequest: { sdkClassName: "SigningRequest", id: bobId, status: 0, email: null },
    });
    expect(await world.db.signingLink.count({ where: { signerId: bobId } })).toBe(1);

    // The address and the methods live on the signing request (sdk-php's update mapping keys).
    const request = await php("PUT", `signingrequests/${bobId}`, {
      email: "bob@example.com",
      emailSubject: "Please sign, Bob",
      reminderInterval: 2,
      enableInsecureSigning: true,
      insecureSigningMethods: ["text"],
    });
    expect(request.status).toBe(200);
    // sdk-net's Query.FindAsync<SigningRequest>: exactly 200, and the fields it maps.
    const read = await net("GET", `signingrequests/${bobId}`);
    expect(read.status).toBe(200);
    expect(bodyOf<SigningRequestJson>(read)).toMatchObject({
      sdkClassName: "SigningRequest",
      id: bobId,
      email: "bob@example.com",
      emailSubject: "Please sign, Bob",
      reminderInterval: 2,
      accessControl: false,
      enableInsecureSigning: true,
      insecureSigningMethods: ["text"],
    });
    // Read-only keys echoed back (sdk-php PUTs what it read) change nothing and are no error.
    const echoed = await php("PUT", `signingrequests/${bobId}`, bodyOf(read));
    expect(echoed.status).toBe(200);

    // A copy recipient (sdk-net's CopyRecipient create mapping: name, email).
    const cc = await net("POST", `casefiles/${caseFileId}/recipients`, { name: "Archive", email: "archive@acme.example" });
    expect(cc.status).toBe(201);
    expect(bodyOf(cc)).toMatchObject({ sdkClassName: "CopyRecipient", name: "Archive", email: "archive@acme.example" });
  });

  it("finds the draft by its metaData (sdk-php findByMetaData, sdk-net FindBy) and puts it in a folder (sdk-net POST link)", async () => {
    const byPhp = bodyOf<{ id: number }[]>(await php("GET", "casefiles?metaData=crm-deal-4711"));
    expect(byPhp.map((c) => c.id)).toEqual([caseFileId]);
    const byNet = bodyOf<{ id: number; status: number }[]>(await net("GET", "casefiles?metaData=crm-deal-4711&status=0"));
    expect(byNet.map((c) => [c.id, c.status])).toEqual([[caseFileId, 0]]);
    // Another customer finds nothing by the same metaData.
    expect(bodyOf(await php("GET", "casefiles?metaData=crm-deal-4711", undefined, otherToken))).toEqual([]);

    const folder = bodyOf<{ id: number }>(await net("POST", "folders", { title: "Shareholders" }));
    expect((await net("POST", `folders/${folder.id}/casefiles/${caseFileId}`)).status).toBe(204);
    expect(bodyOf<{ id: number }[]>(await net("GET", `casefiles/${caseFileId}/folders`)).map((f) => f.id)).toEqual([folder.id]);
    expect(bodyOf<{ id: number }[]>(await net("GET", `folders/${folder.id}/casefiles`)).map((c) => c.id)).toEqual([caseFileId]);
  });

  it("sends the draft (its send job, due at sendAt, runs now): both get their request; the link is served as the SDKs read it", async () => {
    const sendJob = await world.producer().queue("casefile").getJob(`send-${caseFileId}`);
    expect(sendJob).toBeDefined();
    await sendJob!.promote();
    const [toAlice, toBob] = await Promise.all([
      smtp.waitFor((m) => m.to.includes("alice-old@example.com"), 20_000),
      smtp.waitFor((m) => m.to.includes("bob@example.com"), 20_000),
    ]);
    expect(toBob.subject).toBe("Please sign, Bob");
    expect(await caseFileStatus(caseFileId)).toBe(1);

    // sdk-net GetLinkAsync: DeserializeObject<string[]>(body)[0]; sdk-php getLink(): $data[0].
    const link = await net("GET", `signingrequests/${aliceId}/link`);
    expect(link.status).toBe(200);
    aliceLink = bodyOf<string[]>(link)[0]!;
    expect(bodyOf(link)).toEqual([linksIn(toAlice)[0]]);
    expect(bodyOf(await php("GET", `signingrequests/${bobId}/link`))).toEqual(linksIn(toBob));
  });

  it("corrects the pending signer's name and email and resends: the new mail goes to the new address", async () => {
    await eventually(async () => eventsOf(await signerLog(caseFileId, aliceId)).includes("requestSent"));
    // Once sent, the name may still be corrected; the role may not.
    expect(
      (await net("PUT", `casefiles/${caseFileId}/signers/${aliceId}`, { name: "Alice B. Andersen", ssnType: "legacy", storeAsContact: false })).status,
    ).toBe(200);
    const role = await php("PUT", `casefiles/${caseFileId}/signers/${aliceId}`, { role: "Chairman" });
    expect(role.status).toBe(409);
    expect(bodyOf<ErrorJson>(role).message).toContain("not role");

    expect((await php("PUT", `signingrequests/${aliceId}`, { email: "alice@example.com" })).status).toBe(200);
    // sdk-php SigningRequest::send(): PATCH with no body, Content-type: application/json.
    const resent = await php("PATCH", `signingrequests/${aliceId}/send`);
    expect(resent.status).toBe(200);
    expect(bodyOf(resent)).toMatchObject({ sdkClassName: "SigningRequest", id: aliceId, email: "alice@example.com", status: 1 });
    const mail = await smtp.waitFor((m) => m.to.includes("alice@example.com"), 20_000);
    expect(linksIn(mail)).toEqual([aliceLink]);
    expect(mail.text).toContain("Dear Alice B. Andersen");
    expect(smtp.messagesTo("alice-old@example.com")).toHaveLength(1);
  });

  it("both sign; the case file completes and the copy recipient gets the completion mail", async () => {
    await eventually(async () => eventsOf(await signerLog(caseFileId, aliceId)).filter((e) => e === "requestSent").length === 2);
    const bobLink = bodyOf<string[]>(await php("GET", `signingrequests/${bobId}/link`))[0]!;
    await openAndSign(aliceLink, "Alice B. Andersen");
    await openAndSign(bobLink, "Bob Berg");
    await eventually(async () => (await caseFileStatus(caseFileId)) === 5, 30_000);
    const copy = await smtp.waitFor((m) => m.to.includes("archive@acme.example"), 20_000);
    expect(copy.subject).toContain("Shareholder agreement");
  });

  it("the signer's log (sdk-php getEventLog, sdk-net GetEventLog) tells it all in order, with who and from where", async () => {
    const log = await eventually(async () => {
      const entries = await signerLog(caseFileId, aliceId);
      return entries.some((e) => e.event === "finalized") && entries;
    });
    expect(eventsOf(log)).toEqual([
      "edited",
      "requestActivated",
      "requestSent",
      "edited",
      "edited",
      "requestResent",
      "requestSent",
      "opened",
      "signed",
      "finalized",
    ]);
    const byEvent = (event: string, n = 0) => log.filter((e) => e.event === event)[n]!;
    // What sdk-net's LogEntry needs: an int eventType, unix seconds; every entry names its class.
    for (const e of log) {
      expect(e).toMatchObject({ sdkClassName: "LogEntry", eventType: expect.any(Number), eventTime: expect.any(Number) });
    }
    expect(log.map((e) => e.eventType)).toEqual([12, 8, 1, 12, 12, 11, 1, 3, 4, 9]);
    expect(byEvent("edited", 0)).toMatchObject({
      actor: "user",
      userId: acme.userId,
      ip: "127.0.0.1",
      userAgent: "Penneo%2Fsdk-net%408.0.1",
      detail: { fields: ["name"] },
    });
    expect(byEvent("edited", 2)).toMatchObject({ actor: "user", userAgent: expect.stringContaining("sdk-php"), detail: { fields: ["email"] } });
    expect(byEvent("requestResent")).toMatchObject({ actor: "user", userId: acme.userId, ip: "127.0.0.1" });
    expect(byEvent("opened")).toMatchObject({ actor: "signer", ip: "127.0.0.1", userAgent: "Mozilla/5.0 (signer's browser)" });
    expect(byEvent("signed")).toMatchObject({ actor: "signer", ip: "127.0.0.1", userAgent: "Mozilla/5.0 (signer's browser)" });
    expect(byEvent("requestSent")).toMatchObject({ actor: "system" });
    expect(byEvent("requestSent").ip).toBeUndefined();

    // The case file's whole log: its own entries and every signer's, oldest first.
    const whole = bodyOf<LogJson[]>(await net("GET", `casefiles/${caseFileId}/log`));
    const own = whole.filter((e) => e.signerId === undefined).map((e) => [e.event, e.eventType]);
    expect(own).toEqual([
      ["created", 100],
      ["edited", 108],
      ["folderChanged", 107],
      ["sent", 101],
      ["completed", 103],
    ]);
    expect(whole.filter((e) => e.signerId === bobId).map((e) => e.event)).toEqual([
      "added",
      "edited",
      "requestActivated",
      "requestSent",
      "opened",
      "signed",
      "finalized",
    ]);
    expect(whole.map((e) => e.id)).toEqual([...whole.map((e) => e.id)].sort((a, b) => a - b));

    // Paged as sdk-net pages (page and per_page twice, a Link header) and as sdk-php pages (limit, offset).
    const path = `casefiles/${caseFileId}/signers/${aliceId}/log`;
    const page = await net("GET", `${path}?per_page=4&page=2&per_page=4&page=2`, undefined, acme, { "x-paginate": "true" });
    expect(bodyOf<LogJson[]>(page).map((e) => e.event)).toEqual(eventsOf(log).slice(4, 8));
    expect(page.headers.get("link")).toMatch(/[?&]page=3&per_page=4>; rel="next"/);
    expect(bodyOf<LogJson[]>(await php("GET", `${path}?limit=3&offset=8`)).map((e) => e.event)).toEqual(["signed", "finalized"]);
  });
});

describe("an undeliverable signer, corrected and resent", () => {
  it("is pending again and gets the request at the new address", async () => {
    const { caseFileId, links } = await createCaseFile({ title: "Bounced", signers: [signer("Nora Nygaard", "bounce@example.com")] });
    const nora = links["Nora Nygaard"]!.signerId;
    await eventually(async () => (await world.db.signer.findUniqueOrThrow({ where: { id: nora } })).status === 5);
    expect(bodyOf(await net("GET", `signingrequests/${nora}`))).toMatchObject({ status: 5 });
    expect((await php("PUT", `signingrequests/${nora}`, { email: "nora@example.com" })).status).toBe(200);
    const resent = await php("PATCH", `signingrequests/${nora}/send`);
    expect(bodyOf(resent)).toMatchObject({ status: 1, email: "nora@example.com" });
    await smtp.waitFor((m) => m.to.includes("nora@example.com"), 20_000);
    await eventually(async () => eventsOf(await signerLog(caseFileId, nora)).at(-1) === "requestSent");
    expect(eventsOf(await signerLog(caseFileId, nora))).toEqual(["requestActivated", "undeliverable", "edited", "requestResent", "requestSent"]);
  });
});

describe("signOnMeeting: the creator gets the links, the signers get no mail", () => {
  it("each round's activation is one mail to the creator, in the case file's language, with that round's links; none to the signers", async () => {
    const meeting = await createCaseFile({
      title: "Lejekontrakt",
      language: "da",
      signOnMeeting: true,
      signers: [
        signer("Dorte Dam", "dorte@example.com", { role: "Lejer" }),
        signer("Erik Eng", "erik@example.com", { role: "Lejer" }),
        signer("Frida Fjord", "frida@example.com", { role: "Udlejer", signOrder: 1 }),
      ],
      documents: [{ title: "Lejekontrakt", name: "contract.pdf" }],
    });
    expect(meeting.status).toBe(1);
    const [dorte, erik, frida] = ["Dorte Dam", "Erik Eng", "Frida Fjord"].map((n) => meeting.links[n]!);
    // Frida's round has not come: there is no request of hers to send again.
    const early = await php("PATCH", `signingrequests/${frida!.signerId}/send`);
    expect(early.status).toBe(409);
    expect(bodyOf<ErrorJson>(early).message).toContain("turn");

    const first = await smtp.waitFor((m) => m.to.includes(CREATOR) && m.subject.includes("Lejekontrakt"), 20_000);
    expect(first.subject).toBe("Underskriftslinks til dit møde: Lejekontrakt");
    expect(first.text).toContain("Dorte Dam (Lejer): ");
    expect(linksIn(first).sort()).toEqual([dorte!.url, erik!.url].sort());
    expect(first.html).toContain('<html lang="da">');

    // Both signers' request jobs have run (the second found its link sent): nothing went to a signer.
    const activated = await world.db.event.findMany({
      where: { eventType: "sign.signer.requestActivated", payload: { path: ["caseFile", "id"], equals: meeting.caseFileId } },
    });
    expect(activated).toHaveLength(2);
    const queue = world.producer().queue("notifications");
    await eventually(async () => (await Promise.all(activated.map((e) => queue.getJobState(`request-${e.id}`)))).every((s) => s === "completed"));
    for (const address of ["dorte@example.com", "erik@example.com", "frida@example.com"]) expect(smtp.messagesTo(address)).toHaveLength(0);
    expect(smtp.messagesTo(CREATOR).filter((m) => m.subject.includes("Lejekontrakt"))).toHaveLength(1);
    // The events as usual, but no requestSent: no request went to a signer. The log says where the link went.
    expect(
      await world.db.event.count({ where: { eventType: "sign.signer.requestSent", payload: { path: ["caseFile", "id"], equals: meeting.caseFileId } } }),
    ).toBe(0);
    expect(eventsOf(await signerLog(meeting.caseFileId, dorte!.signerId))).toEqual(["requestActivated", "linkSentToCreator"]);

    // The next round's activation is a mail of its own, with that round's link only.
    await openAndSign(dorte!.url, "Dorte Dam");
    await openAndSign(erik!.url, "Erik Eng");
    const second = await smtp.waitFor((m) => m.to.includes(CREATOR) && m.subject.includes("Lejekontrakt") && m !== first, 20_000);
    expect(linksIn(second)).toEqual([frida!.url]);
    expect(second.text).toContain("Frida Fjord (Udlejer): ");
    expect(smtp.messagesTo("frida@example.com")).toHaveLength(0);

    // A resend with signOnMeeting goes to the creator too: that signer's link only.
    expect((await php("PATCH", `signingrequests/${frida!.signerId}/send`)).status).toBe(200);
    const third = await smtp.waitFor((m) => m.to.includes(CREATOR) && m.subject.includes("Lejekontrakt") && m !== first && m !== second, 20_000);
    expect(linksIn(third)).toEqual([frida!.url]);
    expect(smtp.messagesTo("frida@example.com")).toHaveLength(0);
  });
});

describe("copy recipients at Penneo's paths", () => {
  it("lists (a bare array), reads, adds, changes and removes them while the case file is open", async () => {
    const { caseFileId } = await createCaseFile({ title: "Recipients", activateCaseFile: false, signers: [signer("Gry", "gry@example.com")] });
    const added = bodyOf<{ id: number }>(await php("POST", `casefiles/${caseFileId}/recipients`, { name: "Hans", email: "hans@example.com" }));
    const list = await php("GET", `casefiles/${caseFileId}/recipients`);
    expect(list.status).toBe(200);
    expect(bodyOf(list)).toEqual([{ sdkClassName: "CopyRecipient", id: added.id, name: "Hans", email: "hans@example.com" }]);
    expect(bodyOf(await net("GET", `casefiles/${caseFileId}/recipients/${added.id}`))).toMatchObject({ id: added.id, name: "Hans" });
    // sdk-php's update mapping (name, email), the read object's own keys sent back with it.
    const put = await php("PUT", `casefiles/${caseFileId}/recipients/${added.id}`, {
      sdkClassName: "CopyRecipient",
      id: added.id,
      name: "Hans Hansen",
      email: "hans@example.com",
    });
    expect(bodyOf(put)).toMatchObject({ name: "Hans Hansen" });
    expect((await php("DELETE", `casefiles/${caseFileId}/recipients/${added.id}`)).status).toBe(204);
    expect(bodyOf(await net("GET", `casefiles/${caseFileId}/recipients`))).toEqual([]);
    expect((await net("GET", `casefiles/${caseFileId}/recipients/${added.id}`)).status).toBe(404);
    // The case file's log names each change.
    const log = bodyOf<LogJson[]>(await php("GET", `casefiles/${caseFileId}/log`));
    expect(log.map((e) => [e.event, e.detail?.change ?? null])).toEqual([
      ["created", null],
      ["edited", "added"],
      ["edited", "changed"],
      ["edited", "removed"],
    ]);
  });
});

describe("a draft's signers: the create's rules over the whole set, the caps, deletion", () => {
  it("refuses a role that strands a signer or a document, caps signers and copy recipients, deletes a signer who has not signed", async () => {
    const draft = await createCaseFile({
      title: "Deed",
      activateCaseFile: false,
      signers: [signer("Olga Buyer", "olga@example.com", { role: "Buyer" }), signer("Per Seller", "per@example.com", { role: "Seller" })],
      documents: [{ title: "Deed", name: "contract.pdf", roles: ["Buyer", "Seller"] }],
    });
    const id = draft.caseFileId;
    const per = (await world.db.signer.findFirstOrThrow({ where: { caseFileId: id, name: "Per Seller" } })).id;
    // Witness signs nothing, and nobody would sign for the deed's Seller any more.
    const role = await php("PUT", `casefiles/${id}/signers/${per}`, { role: "Witness" });
    expect(role.status).toBe(400);
    expect(
      bodyOf<ErrorJson>(role)
        .errors?.map((e) => `${e.path}:${e.code}`)
        .sort(),
    ).toEqual(["role:role_without_signer", "role:signer_without_document"]);

    // Every document lists roles, so a new signer needs one of them (the SDKs send none: the default
    // role, Signer, would sign nothing).
    const roleless = await net("POST", `casefiles/${id}/signers`, { name: "Quinn Buyer", ssnType: "legacy", storeAsContact: false, language: "en" });
    expect(errorPaths(roleless)).toEqual(["role:signer_without_document"]);
    // A draft not to be sent yet has no links: an added signer gets none either.
    const added = bodyOf<SignerJson>(
      await net("POST", `casefiles/${id}/signers`, { name: "Quinn Buyer", ssnType: "legacy", storeAsContact: false, role: "Buyer" }),
    );
    expect(added.id).toEqual(expect.any(Number));
    expect(await world.db.signingLink.count({ where: { signerId: added.id } })).toBe(0);
    const fourth = await php("POST", `casefiles/${id}/signers`, { name: "Rolf Buyer" });
    expect(fourth.status).toBe(409);
    expect(bodyOf<ErrorJson>(fourth).message).toContain("at most 3 signers");

    // sdk-php Signer::delete(): DELETE with Content-type and no body; the log says who.
    expect((await php("DELETE", `casefiles/${id}/signers/${added.id}`)).status).toBe(204);
    expect(await signerLog(id, added.id)).toMatchObject([
      { event: "added", eventType: 14, actor: "user" },
      { event: "deleted", eventType: 10, actor: "user", userId: acme.userId, ip: "127.0.0.1" },
    ]);

    for (const n of [1, 2]) expect((await php("POST", `casefiles/${id}/recipients`, { name: `Copy ${n}`, email: `copy${n}@example.com` })).status).toBe(201);
    const third = await php("POST", `casefiles/${id}/recipients`, { name: "Copy 3", email: "copy3@example.com" });
    expect(third.status).toBe(409);
    expect(bodyOf<ErrorJson>(third).message).toContain("at most 2 copy recipients");
  });
});

describe("bad input, closed case files and other customers' ids", () => {
  let draftId: number;
  let draftSignerId: number;

  beforeAll(async () => {
    const draft = await createCaseFile({ title: "Draft", activateCaseFile: false, signers: [signer("Ida", "ida@example.com")] });
    draftId = draft.caseFileId;
    draftSignerId = (await world.db.signer.findFirstOrThrow({ where: { caseFileId: draftId } })).id;
  });

  it("answers 400 naming every failing field, in the create payload's codes and words, and writes nothing", async () => {
    const add = await php("POST", `casefiles/${draftId}/signers`, { name: "", email: "no-at-sign", ssnType: "passport", language: "xx", signOrder: -1 });
    expect(add.status).toBe(400);
    expect(errorPaths(add)).toEqual(
      expect.arrayContaining(["name:too_small", "email:invalid_format", "ssnType:invalid_value", "language:invalid_value", "signOrder:too_small"]),
    );
    expect(bodyOf<ErrorJson>(add).errors).toContainEqual({ path: "email", code: "invalid_format", message: "must be a valid email address" });
    // Numbers past their columns are a 400, not a database error.
    expect(errorPaths(await php("POST", `casefiles/${draftId}/signers`, { name: "Big", signOrder: 2 ** 31, activeAt: 1e13 }))).toEqual([
      "signOrder:too_big",
      "activeAt:too_big",
    ]);
    expect(errorPaths(await php("POST", `casefiles/${draftId}/signers`, { ssnType: "legacy", phone: "1" }))).toEqual(
      expect.arrayContaining(["name:required", "phone:unrecognized_key"]),
    );
    // The create's rules across fields, over the signer as it would be: eboks needs cpr or cvr (and the add-on).
    const eboks = await net("PUT", `casefiles/${draftId}/signers/${draftSignerId}`, { channel: "eboks" });
    expect(errorPaths(eboks)).toEqual(expect.arrayContaining(["body:eboks_identifier_required", "channel:eboks_disabled"]));
    const request = await php("PUT", `signingrequests/${draftSignerId}`, {
      email: "x",
      reminderInterval: 0,
      successUrl: "javascript:alert(1)",
      insecureSigningMethods: ["pen"],
      emailSubject: "Hi",
    });
    expect(errorPaths(request)).toEqual(
      expect.arrayContaining([
        "email:invalid_format",
        "reminderInterval:too_small",
        "successUrl:invalid_format",
        "insecureSigningMethods[0]:invalid_value",
        "emailSubject:too_small",
      ]),
    );
    const disabled = await php("PUT", `signingrequests/${draftSignerId}`, { enableInsecureSigning: false });
    expect(errorPaths(disabled)).toEqual(["insecureSigningMethods:insecure_signing_disabled"]);
    const secure = await php("PUT", `signingrequests/${draftSignerId}`, { secureSigningMethods: ["mitid.dk"] });
    expect(errorPaths(secure)).toEqual(["secureSigningMethods:secure_method_not_enabled"]);
    expect(errorPaths(await php("POST", `casefiles/${draftId}/recipients`, { name: "", email: "nope" }))).toEqual(["name:too_small", "email:invalid_format"]);
    // Nothing was written.
    expect(await world.db.signer.count({ where: { caseFileId: draftId } })).toBe(1);
    expect(await world.db.signer.findUniqueOrThrow({ where: { id: draftSignerId } })).toMatchObject({ email: "ida@example.com", channel: "email" });
    expect(await world.db.logEntry.count({ where: { caseFileId: draftId, event: "edited" } })).toBe(0);
  });

  it("a fetched signer PUT back whole is no change; a draft's link does not exist yet (409, still JSON)", async () => {
    const read = await php("GET", `casefiles/${draftId}/signers/${draftSignerId}`);
    expect((await php("PUT", `casefiles/${draftId}/signers/${draftSignerId}`, bodyOf(read))).status).toBe(200);
    const link = await net("GET", `signingrequests/${draftSignerId}/link`);
    expect(link.status).toBe(409);
    expect(bodyOf<ErrorJson>(link)).toMatchObject({ error: "conflict", message: expect.stringContaining("draft") });
    const resend = await php("PATCH", `signingrequests/${draftSignerId}/send`);
    expect(resend.status).toBe(409);
    expect(bodyOf<ErrorJson>(resend).message).toContain("not been sent");
  });

  it("refuses every change to a completed or deleted case file with 409", async () => {
    const completed = await world.db.caseFile.findFirstOrThrow({ where: { customerId: acme.customerId, status: 5 }, include: { signers: true } });
    const s = completed.signers[0]!.id;
    const attempts: [string, RawAnswer][] = [
      ["add signer", await php("POST", `casefiles/${completed.id}/signers`, { name: "Late" })],
      ["rename signer", await net("PUT", `casefiles/${completed.id}/signers/${s}`, { name: "Renamed" })],
      ["delete signer", await php("DELETE", `casefiles/${completed.id}/signers/${s}`)],
      ["change request", await php("PUT", `signingrequests/${s}`, { emailSubject: "Too late now" })],
      ["resend", await php("PATCH", `signingrequests/${s}/send`)],
      ["add recipient", await php("POST", `casefiles/${completed.id}/recipients`, { name: "Late", email: "late@example.com" })],
    ];
    expect(attempts.map(([what, a]) => [what, a.status])).toEqual(attempts.map(([what]) => [what, 409]));

    expect((await net("DELETE", `casefiles/${draftId}`)).status).toBe(200);
    const deleted: [string, RawAnswer][] = [
      ["rename signer", await php("PUT", `casefiles/${draftId}/signers/${draftSignerId}`, { name: "Renamed" })],
      ["change request", await php("PUT", `signingrequests/${draftSignerId}`, { email: "new@example.com" })],
      ["add recipient", await php("POST", `casefiles/${draftId}/recipients`, { name: "Late", email: "late@example.com" })],
      ["link", await net("GET", `signingrequests/${draftSignerId}/link`)],
    ];
    expect(deleted.map(([what, a]) => [what, a.status])).toEqual(deleted.map(([what]) => [what, 409]));
    expect(bodyOf<ErrorJson>(deleted[0]![1]).message).toContain("deleted");
  });

  it("answers another customer's ids exactly like missing ones: 404", async () => {
    const { caseFileId, links } = await createCaseFile({ title: "Mine", signers: [signer("Jens", "jens@example.com")] });
    const s = links.Jens!.signerId;
    const asOther = (method: string, path: string, body?: unknown) => php(method, path, body, otherToken);
    const calls: [string, RawAnswer][] = [
      ["add signer", await asOther("POST", `casefiles/${caseFileId}/signers`, { name: "X" })],
      ["rename", await asOther("PUT", `casefiles/${caseFileId}/signers/${s}`, { name: "X" })],
      ["delete", await asOther("DELETE", `casefiles/${caseFileId}/signers/${s}`)],
      ["request", await asOther("GET", `signingrequests/${s}`)],
      ["change request", await asOther("PUT", `signingrequests/${s}`, { email: "x@example.com" })],
      ["resend", await asOther("PATCH", `signingrequests/${s}/send`)],
      ["link", await net("GET", `signingrequests/${s}/link`, undefined, other)],
      ["recipients", await asOther("GET", `casefiles/${caseFileId}/recipients`)],
      ["add recipient", await asOther("POST", `casefiles/${caseFileId}/recipients`, { name: "X", email: "x@example.com" })],
      ["signer log", await asOther("GET", `casefiles/${caseFileId}/signers/${s}/log`)],
      ["case file log", await net("GET", `casefiles/${caseFileId}/log`, undefined, other)],
    ];
    expect(calls.map(([what, a]) => [what, a.status])).toEqual(calls.map(([what]) => [what, 404]));
    expect(await world.db.logEntry.count({ where: { caseFileId, event: { in: ["edited", "added", "requestResent"] } } })).toBe(0);
  });
});

describe("the TypeScript SDK (packages/sdk)", () => {
  it("adds, changes, resends and reads signers, signing requests, copy recipients and logs", async () => {
    const client = new EsignClient({ baseUrl: system.gateway.url, credentials: { clientId: acme.clientId, clientSecret: acme.clientSecret } });
    const { caseFileId, links } = await createCaseFile({ title: "SDK", signers: [signer("Karen", "karen@example.com")] });
    const karen = links.Karen!;
    await expect(client.signers.add(caseFileId, { name: "Late" })).rejects.toMatchObject({ status: 409 });
    expect(await client.signers.update(caseFileId, karen.signerId, { name: "Karen K." })).toMatchObject({ name: "Karen K." });
    expect(await client.signers.getSigningLink(karen.signerId)).toBe(karen.url);
    expect(await client.signers.updateSigningRequest(karen.signerId, { emailSubject: "Karen, please sign" })).toMatchObject({
      emailSubject: "Karen, please sign",
    });
    await eventually(async () => (await client.signers.log(caseFileId, karen.signerId)).some((e) => e.event === "requestSent"));
    expect(await client.signers.resendSigningRequest(karen.signerId)).toMatchObject({ id: karen.signerId, status: 1 });
    await smtp.waitFor((m) => m.to.includes("karen@example.com") && m.subject === "Karen, please sign", 20_000);
    const recipient = await client.copyRecipients.add(caseFileId, { name: "Lis", email: "lis@example.com" });
    expect(await client.copyRecipients.list(caseFileId)).toEqual([recipient]);
    await client.copyRecipients.delete(caseFileId, recipient.id);
    expect((await client.signers.caseFileLog(caseFileId)).map((e) => e.event)).toEqual(expect.arrayContaining(["created", "sent", "requestResent"]));
    const missing = await client.signers.getSigningRequest(2_000_000_000).catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(EsignApiError);
    expect((missing as EsignApiError).status).toBe(404);
  });
});
