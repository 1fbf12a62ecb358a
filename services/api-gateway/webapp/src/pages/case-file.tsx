import { useState } from "preact/hooks";
import { CASE_FILE_STATUS, type CaseFile, type Document, type SealCheck, type Signer } from "@esign/sdk/browser";
import { client } from "../api";
import { formatDate, useI18n } from "../i18n";
import { caseFileStatusName, signerStatusName } from "../status";
import { ActionButton, ErrorNotice, Field, Loading, Notice, useLoad } from "../ui";

/** Fetches the PDF through the API and hands it to the browser as a file to save. */
async function save(caseFileId: number, doc: Document): Promise<void> {
  const blob = await client.downloadDocument(caseFileId, doc.id);
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = doc.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function DocumentRow({ caseFile, doc }: { caseFile: CaseFile; doc: Document }) {
  const { t } = useI18n();
  const [seal, setSeal] = useState<SealCheck>();
  const url = client.documentUrl(caseFile.id, doc.id);
  const finished = caseFile.status === CASE_FILE_STATUS.completed || caseFile.status === CASE_FILE_STATUS.signed;
  return (
    <li class="row">
      <span class="row-title">{doc.title}</span>
      <span class="row-actions">
        <a href={url} target="_blank" rel="noopener">
          {t.caseFile.view}
          <span class="visually-hidden"> {doc.title}</span>
        </a>
        <ActionButton
          label={`${finished && doc.signable ? t.caseFile.downloadSealed : t.caseFile.download}: ${doc.title}`}
          run={() => save(caseFile.id, doc)}
        />
        {finished && doc.signable ? (
          <ActionButton label={t.caseFile.verify} run={async () => setSeal(await client.verifyDocument(caseFile.id, doc.id))} />
        ) : null}
      </span>
      {seal ? (
        <Notice kind={seal.sealed && seal.sealValid ? "ok" : "error"}>
          {!seal.sealed ? t.caseFile.notSealed : seal.sealValid ? t.caseFile.sealValid : t.caseFile.sealInvalid}
        </Notice>
      ) : null}
    </li>
  );
}

function SignerRow({ caseFile, signer, onChange }: { caseFile: CaseFile; signer: Signer; onChange: () => void }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(signer.name);
  const [email, setEmail] = useState(signer.signingRequest.email ?? "");
  const [note, setNote] = useState("");
  const state = signerStatusName(signer);
  const open = caseFile.status === CASE_FILE_STATUS.pending || caseFile.status === CASE_FILE_STATUS.new;
  const waiting = open && state !== "signed" && state !== "rejected" && state !== "deleted";
  return (
    <li class="row">
      <span class="row-title">{signer.name}</span>
      <span class={`badge ${state}`}>{t.signerStatus[state]}</span>
      <span class="row-meta">
        <span>{signer.signingRequest.email}</span>
        {signer.role ? (
          <span>
            {t.caseFile.role}: {signer.role}
          </span>
        ) : null}
        <span>
          {t.caseFile.order}: {signer.signOrder}
        </span>
      </span>
      {waiting ? (
        <span class="row-actions">
          {caseFile.status === CASE_FILE_STATUS.pending ? (
            <ActionButton
              label={`${t.caseFile.resend}`}
              run={async () => {
                await client.signers.resendSigningRequest(signer.id);
                setNote(t.caseFile.resent);
              }}
            />
          ) : null}
          <button type="button" class="secondary" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            {t.caseFile.correct}
            <span class="visually-hidden"> {signer.name}</span>
          </button>
        </span>
      ) : null}
      {note ? <Notice kind="ok">{note}</Notice> : null}
      {editing ? (
        <form
          class="inline-form"
          onSubmit={async (e) => {
            e.preventDefault();
            await client.signers.update(caseFile.id, signer.id, { name });
            if (email !== (signer.signingRequest.email ?? "")) await client.signers.updateSigningRequest(signer.id, { email });
            setEditing(false);
            setNote(t.caseFile.saved);
            onChange();
          }}
        >
          <Field label={t.caseFile.name}>
            <input required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </Field>
          <Field label={t.caseFile.email}>
            <input type="email" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
          </Field>
          <button type="submit" class="primary">
            {t.caseFile.save}
          </button>
          <button type="button" class="secondary" onClick={() => setEditing(false)}>
            {t.caseFile.cancel}
          </button>
        </form>
      ) : null}
    </li>
  );
}

function EventLog({ caseFile }: { caseFile: CaseFile }) {
  const { t, lang } = useI18n();
  const log = useLoad(() => client.signers.caseFileLog(caseFile.id), [caseFile.id, caseFile.updatedAt]);
  const names = new Map(caseFile.signers.map((s) => [s.id, s.name]));
  if (log.error) return <ErrorNotice error={log.error} />;
  if (!log.data) return <Loading />;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{t.caseFile.log}</caption>
        <thead>
          <tr>
            <th scope="col">{t.caseFile.when}</th>
            <th scope="col">{t.caseFile.event}</th>
            <th scope="col">{t.caseFile.who}</th>
          </tr>
        </thead>
        <tbody>
          {log.data.map((e) => (
            <tr key={e.id}>
              <td>{formatDate(lang, e.eventTime)}</td>
              <td>{e.event}</td>
              <td>{e.signerId !== undefined ? (names.get(e.signerId) ?? e.actor) : e.actor}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Send, for a draft that can be sent; otherwise what stops it, as the API says (a case file waiting
 * for its send-at time has been sent already and goes out by itself then).
 */
function SendDraft({ caseFile, send }: { caseFile: CaseFile; send: () => Promise<void> }) {
  const { t } = useI18n();
  const readiness = useLoad(() => client.caseFiles.errors(caseFile.id), [caseFile.id, caseFile.updatedAt]);
  if (!readiness.data) return null;
  if (readiness.data.length === 0) return <ActionButton kind="primary" label={t.caseFile.send} run={send} />;
  return (
    <p class="hint" data-not-sendable>
      {t.caseFile.notSendable}: {readiness.data.join("; ")}
    </p>
  );
}

export function CaseFilePage({ id }: { id: number }) {
  const { t, lang } = useI18n();
  const loaded = useLoad(() => client.getCaseFile(id), [id]);
  const [note, setNote] = useState("");
  if (loaded.error) return <Notice kind="error">{t.caseFile.notFound}</Notice>;
  if (!loaded.data) return <Loading />;
  const c = loaded.data;
  const status = caseFileStatusName(c.status);
  const run =
    (action: () => Promise<unknown>, message = "") =>
    async () => {
      await action();
      setNote(message);
      loaded.reload();
    };
  return (
    <article>
      <h1>
        {c.title} <span class={`badge ${status}`}>{t.status[status]}</span>
      </h1>
      <dl class="facts">
        {c.reference ? (
          <>
            <dt>{t.caseFile.reference}</dt>
            <dd>{c.reference}</dd>
          </>
        ) : null}
        {c.sendAt && c.status === CASE_FILE_STATUS.new ? (
          <>
            <dt>{t.caseFile.sendsAt}</dt>
            <dd data-send-at={c.sendAt}>{formatDate(lang, c.sendAt)}</dd>
          </>
        ) : null}
        {c.expireAt ? (
          <>
            <dt>{t.caseFile.expires}</dt>
            <dd>{formatDate(lang, c.expireAt)}</dd>
          </>
        ) : null}
      </dl>
      <div class="actions">
        {c.status === CASE_FILE_STATUS.new ? <SendDraft caseFile={c} send={run(() => client.caseFiles.send(c.id), t.caseFile.sent)} /> : null}
        {c.status === CASE_FILE_STATUS.deleted ? (
          <ActionButton label={t.caseFile.restore} run={run(() => client.caseFiles.restore(c.id))} />
        ) : (
          <ActionButton
            kind="danger"
            label={t.caseFile.remove}
            run={run(async () => {
              if (window.confirm(t.caseFile.confirmRemove)) await client.caseFiles.delete(c.id);
            })}
          />
        )}
      </div>
      {note ? <Notice kind="ok">{note}</Notice> : null}
      <h2>{t.caseFile.documents}</h2>
      <ul class="rows">
        {c.documents.map((d) => (
          <DocumentRow key={d.id} caseFile={c} doc={d} />
        ))}
      </ul>
      <h2>{t.caseFile.signers}</h2>
      <ul class="rows">
        {c.signers.map((s) => (
          <SignerRow key={s.id} caseFile={c} signer={s} onChange={loaded.reload} />
        ))}
      </ul>
      {c.ccRecipients.length > 0 ? (
        <>
          <h2>{t.caseFile.copyRecipients}</h2>
          <ul class="rows">
            {c.ccRecipients.map((r) => (
              <li class="row" key={r.email}>
                <span class="row-title">{r.name}</span>
                <span class="row-meta">{r.email}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>{t.caseFile.log}</h2>
      <EventLog caseFile={c} />
    </article>
  );
}
