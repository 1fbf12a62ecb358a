import { closeTestDb, testDb } from "../../../test/support/api";
import type { SinkMessage } from "../../../test/support/smtp-sink";
import { createCaseFile, eventsOf, newTag, startHarness, textOf, type Fixture, type Harness } from "../../../test/support/notifier-harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness("completed");
});

afterAll(async () => {
  await h?.stop();
  await closeTestDb();
});

const completed = (caseFileId: number) => h.enqueue("completed", { caseFileId });
const only = (address: string): SinkMessage => {
  const got = h.sink.messagesTo(address);
  expect(got).toHaveLength(1);
  return got[0]!;
};

/** A finalized case file: the signable document has a signed version, the attachment keeps its original. */
async function finalized(extra: Partial<Parameters<typeof createCaseFile>[0]> = {}, tag = newTag()): Promise<Fixture> {
  return createCaseFile(
    {
      status: 5,
      senderName: "Acme Legal",
      signers: [
        { status: 4 },
        {
          status: 4,
          language: "da",
          notification: { completedEmailSubject: "All done - thank you", completedEmailText: "Thank you for signing.\n\nBest regards, Acme" },
        },
      ],
      documents: [
        { title: "Purchase agreement", name: "agreement.pdf", signed: true },
        { title: "Price list", name: "prices.pdf", signable: false },
      ],
      cc: [{ name: "Auditor", email: `auditor+${tag}@example.com` }],
      ...extra,
    },
    tag,
  );
}

describe("notifier: completed", () => {
  it("mails every signer, every cc recipient and the owner once, with the signed PDFs attached", async () => {
    const f = await finalized();
    const cc = `auditor+${f.tag}@example.com`;
    const jobId = await completed(f.caseFileId);
    expect(await h.finished(jobId)).toBe("completed");

    const [agreement, prices] = f.documents;
    const expectPdfs = (m: SinkMessage) => {
      expect(m.attachments.map((a) => [a.filename, a.contentType])).toEqual([
        ["agreement.pdf", "application/pdf"],
        ["prices.pdf", "application/pdf"],
      ]);
      // The signed version where there is one, byte for byte; the original otherwise.
      expect(m.attachments[0]!.content.equals(agreement!.signed!)).toBe(true);
      expect(m.attachments[1]!.content.equals(prices!.original)).toBe(true);
    };

    const first = only(f.signers[0]!.email!);
    expect(first.subject).toBe(`Signed by everyone: Employment contract ${f.tag}`);
    expect(first.headers.from).toBe("Acme Legal <no-reply@esign.local>");
    expect(textOf(first)).toContain(`All parties have signed "Employment contract ${f.tag}".`);
    expect(textOf(first)).toContain("The signed documents are attached to this email.");
    expectPdfs(first);

    // The signer's own completion subject and text.
    const second = only(f.signers[1]!.email!);
    expect(second.subject).toBe("All done - thank you");
    expect(textOf(second)).toContain("Thank you for signing.\n\nBest regards, Acme");
    expectPdfs(second);

    const copy = only(cc);
    expect(textOf(copy)).toContain("You receive this copy because you were named as a recipient");
    expectPdfs(copy);

    const owner = only(f.ownerEmail);
    expect(textOf(owner)).toContain(`(id ${f.caseFileId}) is completed`);
    expectPdfs(owner);

    // No events: the spec has none for completion mails.
    expect(await eventsOf(f.customerId)).toEqual([]);
    const rows = await testDb().notification.findMany({ where: { caseFileId: f.caseFileId }, orderBy: { recipient: "asc" } });
    expect(rows.map((r) => [r.dedupeKey, r.kind, r.status]).sort()).toEqual(
      [
        [`completed:${f.caseFileId}:${cc}`, "completed", "sent"],
        [`completed:${f.caseFileId}:${f.ownerEmail}`, "owner_completed", "sent"],
        [`completed:${f.caseFileId}:${f.signers[0]!.email}`, "completed", "sent"],
        [`completed:${f.caseFileId}:${f.signers[1]!.email}`, "completed", "sent"],
      ].sort(),
    );

    // The same job again, twice at once: nobody gets a second mail.
    const copies = await Promise.all([completed(f.caseFileId), completed(f.caseFileId)]);
    expect(await Promise.all(copies.map((j) => h.finished(j)))).toEqual(["completed", "completed"]);
    for (const a of [f.signers[0]!.email!, f.signers[1]!.email!, cc, f.ownerEmail]) expect(h.sink.messagesTo(a)).toHaveLength(1);
  });

  it("attaches nothing with disableEmailAttachments, and nothing with sensitiveData even when attachments are enabled", async () => {
    const disabled = await finalized({ disableEmailAttachments: true });
    const sensitive = await finalized({ sensitiveData: true, disableEmailAttachments: false });
    for (const f of [disabled, sensitive]) expect(await h.finished(await completed(f.caseFileId))).toBe("completed");

    for (const a of [disabled.signers[0]!.email!, `auditor+${disabled.tag}@example.com`, disabled.ownerEmail]) {
      const m = only(a);
      expect(m.attachments).toEqual([]);
      expect(textOf(m)).toContain("The signed documents are not attached to this email.");
      expect(textOf(m)).toContain("Purchase agreement");
    }
    for (const a of [sensitive.signers[0]!.email!, `auditor+${sensitive.tag}@example.com`, sensitive.ownerEmail]) {
      const m = only(a);
      expect(m.attachments).toEqual([]);
      expect(textOf(m)).toContain("The documents contain sensitive data, so they are not attached to this email.");
      for (const part of [m.raw, textOf(m), m.html ?? ""]) {
        expect(part).not.toContain("Purchase agreement");
        expect(part).not.toContain("agreement.pdf");
      }
    }
  });

  it("leaves the owner out with disableNotificationsOwner", async () => {
    const f = await finalized({ disableNotificationsOwner: true });
    expect(await h.finished(await completed(f.caseFileId))).toBe("completed");
    expect(h.sink.messagesTo(f.ownerEmail)).toHaveLength(0);
    only(f.signers[0]!.email!);
    only(`auditor+${f.tag}@example.com`);
  });

  it("sends nothing for a case file that is not completed yet", async () => {
    const f = await finalized({ status: 4 });
    expect(await h.finished(await completed(f.caseFileId))).toBe("completed");
    for (const a of [f.signers[0]!.email!, f.ownerEmail]) expect(h.sink.messagesTo(a)).toHaveLength(0);
  });

  it("records a permanent refusal and carries on; a temporary one is retried for that address only", async () => {
    const f = await finalized();
    const cc = `auditor+${f.tag}@example.com`;
    h.sink.rejectRecipient(f.signers[1]!.email!, 550, "5.1.1 No such user");
    h.sink.rejectRecipient(cc, 451, "4.2.0 Try again later");
    const jobId = await completed(f.caseFileId);
    try {
      await h.sink.waitForRejection(cc, 20_000);
      await h.sink.waitFor((m) => m.to.includes(f.ownerEmail), 10_000);
    } finally {
      h.sink.acceptRecipient(cc);
    }
    await h.sink.waitFor((m) => m.to.includes(cc), 30_000);
    expect(await h.finished(jobId)).toBe("completed");
    h.sink.acceptRecipient(f.signers[1]!.email!);

    expect((await h.producer.queue("notifications").getJob(jobId))?.attemptsMade).toBe(2);
    for (const a of [f.signers[0]!.email!, cc, f.ownerEmail]) only(a);
    expect(h.sink.messagesTo(f.signers[1]!.email!)).toHaveLength(0);
    const refused = await testDb().notification.findFirstOrThrow({ where: { dedupeKey: `completed:${f.caseFileId}:${f.signers[1]!.email}` } });
    expect(refused.status).toBe("failed");
    // A signer whose completion mail bounced stays signed.
    expect((await testDb().signer.findUniqueOrThrow({ where: { id: f.signers[1]!.id } })).status).toBe(4);
    expect(await eventsOf(f.customerId)).toEqual([]);
  });
});
