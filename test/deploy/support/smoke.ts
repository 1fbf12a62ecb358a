import { randomUUID } from "node:crypto";
import { getToken, postCreate, waitForJob } from "../../support/api";
import { eventually } from "../../support/eventually";
import { makePdf } from "../../support/pdf";
import { pdfsig } from "../../support/poppler";
import type { HttpsReceiver } from "./https-receiver";

export interface SmokeResult {
  caseFileId: number;
  /** Milliseconds of each step, from the create's request. */
  ms: { created: number; jobCompleted: number; signed: number; sealed: number; delivered: number };
  sealedBytes: number;
  signatures: number;
  deliveries: { eventType: string; verified: boolean }[];
}

async function json<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/**
 * The platform team's first check after a deploy, through the gateway only: a token, a webhook
 * subscription to an https receiver, a create (multipart, one signer), the job polled to its case file
 * and signing link, the signer's signature (the link's token, sent to the gateway's local address: the
 * public origin https://esign.test is not served here), the case file sealed (the PDF read back and its
 * signature checked by poppler's pdfsig), and the completion webhook delivered and verified.
 */
export async function smokeTest(gateway: string, creds: { clientId: string; clientSecret: string }, receiver: HttpsReceiver): Promise<SmokeResult> {
  const token = await getToken(gateway, creds);
  const auth = { "X-Auth-Token": token, Authorization: "JWT" };
  const subscription = await json<{ secret: string }>(
    await fetch(`${gateway}/webhook/api/v1/subscriptions`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ eventTypes: ["sign.casefile.completed", "sign.signer.signed"], endpoint: receiver.url }),
    }),
    "subscription",
  );
  receiver.setSecret(subscription.secret);

  const started = Date.now();
  const since = () => Date.now() - started;
  const payload = {
    caseFile: {
      title: "Deploy smoke test",
      language: "en",
      signers: [{ name: "Alice Andersen", email: "alice@example.com", enableInsecureSigning: true, insecureSigningMethods: ["text"] }],
      documents: [{ title: "Contract", name: "contract.pdf" }],
    },
  };
  const created = await postCreate(gateway, token, payload, [{ name: "contract.pdf", content: await makePdf("Deploy smoke test contract") }], {
    "Idempotency-Key": randomUUID(),
  });
  if (created.status !== 200) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
  const createdMs = since();
  const [job] = created.body.jobs;
  const done = await waitForJob(gateway, job!.uuid, job!.payloadHash, 60_000);
  if (done.jobStatus !== "completed" || !done.result) throw new Error(`job ${done.jobStatus}: ${done.errorMessage}`);
  const jobMs = since();
  const caseFileId = done.result.data.caseFile.id;
  const link = done.result.data.signingLinks[0]!.signingLink;
  if (!link.startsWith("https://esign.test/")) throw new Error(`the signing link is not on PUBLIC_BASE_URL: ${link}`);
  const signingToken = link.split("/").pop()!;

  await json(
    await fetch(`${gateway}/sign/${signingToken}/sign`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ method: "text", value: "Alice Andersen" }),
    }),
    "sign",
  );
  const signedMs = since();

  const caseFile = await eventually(async () => {
    const cf = await json<{ status: number; documents: { id: number }[] }>(
      await fetch(`${gateway}/api/v3/casefiles/${caseFileId}`, { headers: auth }),
      "case file",
    );
    return cf.status === 5 ? cf : undefined;
  }, 90_000);
  const sealedMs = since();
  const pdf = Buffer.from(
    await (await fetch(`${gateway}/api/v3/documents/${caseFile.documents[0]!.id}/content`, { headers: { ...auth, accept: "application/pdf" } })).arrayBuffer(),
  );
  const { signatures } = await pdfsig(pdf);

  await receiver.waitFor("sign.casefile.completed", (d) => (d.body.payload as { id?: number } | undefined)?.id === caseFileId, 90_000);
  const deliveredMs = since();
  return {
    caseFileId,
    ms: { created: createdMs, jobCompleted: jobMs, signed: signedMs, sealed: sealedMs, delivered: deliveredMs },
    sealedBytes: pdf.length,
    signatures: signatures.length,
    deliveries: receiver.deliveries.map((d) => ({ eventType: d.eventType, verified: d.verified })),
  };
}
