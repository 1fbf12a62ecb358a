import { useState } from "preact/hooks";
import type { CaseFileInput, Language, SignerInput } from "@esign/sdk/browser";
import type { TSecureSigningMethod } from "@esign/schema";
import { client, describeError } from "../api";
import { APP_LANGUAGES, LANGUAGE_NAMES, useI18n } from "../i18n";
import { href, navigate } from "../router";
import { useStored } from "../stored";
import { Field, Notice, useLoad } from "../ui";

type Method = "text" | "draw" | "image";
const METHODS: readonly Method[] = ["text", "draw", "image"];

interface SignerDraft {
  key: number;
  name: string;
  email: string;
  role: string;
  order: string;
  language: Language | "";
  methods: Method[];
  /** The electronic IDs ticked; absent until changed, when the API offers every one the company enabled. */
  secure?: TSecureSigningMethod[];
}
interface CcDraft {
  key: number;
  name: string;
  email: string;
}
type When = "now" | "at" | "draft";
interface Draft {
  title: string;
  reference: string;
  metaData: string;
  language: Language;
  folderId: string;
  expireAt: string;
  when: When;
  sendAt: string;
  signers: SignerDraft[];
  cc: CcDraft[];
}

const newSigner = (key: number, order = 1): SignerDraft => ({
  key,
  name: "",
  email: "",
  role: "",
  order: String(order),
  language: "",
  methods: ["draw", "text"],
});
const EMPTY: Draft = {
  title: "",
  reference: "",
  metaData: "",
  language: "en",
  folderId: "",
  expireAt: "",
  when: "now",
  sendAt: "",
  signers: [newSigner(1)],
  cc: [],
};

const unix = (local: string) => Math.floor(new Date(local).getTime() / 1000);

/** What the create route takes, from the form (the documents named after the files). */
export function caseFileInput(d: Draft, files: readonly File[]): CaseFileInput {
  const signers: SignerInput[] = d.signers.map((s) => ({
    name: s.name.trim(),
    email: s.email.trim(),
    ...(s.role.trim() ? { role: s.role.trim() } : {}),
    signOrder: Number(s.order) || 1,
    ...(s.language ? { language: s.language } : {}),
    enableInsecureSigning: true,
    insecureSigningMethods: s.methods,
    ...(s.secure ? { secureSigningMethods: s.secure } : {}),
  }));
  return {
    title: d.title.trim(),
    language: d.language,
    signers,
    documents: files.map((f, i) => ({ title: f.name.replace(/\.pdf$/i, ""), name: f.name, documentOrder: i })),
    ...(d.cc.length > 0 ? { ccRecipients: d.cc.map((c) => ({ name: c.name.trim(), email: c.email.trim() })) } : {}),
    ...(d.reference.trim() ? { reference: d.reference.trim() } : {}),
    ...(d.metaData.trim() ? { metaData: d.metaData.trim() } : {}),
    ...(d.folderId ? { folderId: Number(d.folderId) } : {}),
    ...(d.expireAt ? { expireAt: unix(`${d.expireAt}T23:59`) } : {}),
    ...(d.when === "at" && d.sendAt ? { sendAt: unix(d.sendAt) } : {}),
    ...(d.when === "draft" ? { activateCaseFile: false } : {}),
  };
}

type Progress = { phase: "upload"; percent: number } | { phase: "processing" } | { phase: "failed"; message: string };

export function CreatePage() {
  const { t, lang } = useI18n();
  // Every field but the files survives a reload (a File cannot be stored).
  const [draft, setDraft, clearDraft] = useStored<Draft>("create.draft", { ...EMPTY, language: lang });
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<Progress>();
  const folders = useLoad(() => client.folders.list(), []);
  // The company's profile (members may read it): the electronic IDs it offers its signers.
  const profile = useLoad(() => client.company.profile(), []);
  const secureMethods = (profile.data?.signingMethods ?? []) as TSecureSigningMethod[];
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const setSigner = (key: number, patch: Partial<SignerDraft>) => set({ signers: draft.signers.map((s) => (s.key === key ? { ...s, ...patch } : s)) });
  const setCc = (key: number, patch: Partial<CcDraft>) => set({ cc: draft.cc.map((c) => (c.key === key ? { ...c, ...patch } : c)) });
  const nextKey = () => Math.max(0, ...draft.signers.map((s) => s.key), ...draft.cc.map((c) => c.key)) + 1;
  const text = (value: string, on: (v: string) => void) => ({ value, onInput: (e: Event) => on((e.target as HTMLInputElement).value) });

  const submit = async (e: Event) => {
    e.preventDefault();
    if (files.length === 0) {
      setProgress({ phase: "failed", message: t.create.needFiles });
      return;
    }
    try {
      setProgress({ phase: "upload", percent: 0 });
      const job = await client.createCaseFile(caseFileInput(draft, files), files, (p) =>
        setProgress({ phase: "upload", percent: p.total > 0 ? Math.round((p.loaded / p.total) * 100) : 0 }),
      );
      setProgress({ phase: "processing" });
      // The first poll soon; then the 5 s between polls of one job that the spec asks for.
      for (let wait = 1_500; ; wait = 5_000) {
        await new Promise((r) => setTimeout(r, wait));
        const state = await client.getJob(job.uuid, job.payloadHash);
        if (state.jobStatus === "completed" && state.result) {
          clearDraft();
          navigate(href.caseFile(state.result.data.caseFile.id));
          return;
        }
        if (state.jobStatus === "failed") throw new Error(state.errorMessage ?? t.create.failed);
      }
    } catch (err) {
      setProgress({ phase: "failed", message: describeError(err) });
    }
  };

  const busy = progress?.phase === "upload" || progress?.phase === "processing";
  return (
    <section>
      <h1>{t.create.title}</h1>
      <form onSubmit={submit}>
        <fieldset>
          <legend>{t.create.title}</legend>
          <Field label={t.create.caseFileTitle}>
            <input name="title" required {...text(draft.title, (v) => set({ title: v }))} />
          </Field>
          <Field label={t.create.reference}>
            <input name="reference" {...text(draft.reference, (v) => set({ reference: v }))} />
          </Field>
          <Field label={t.create.metaData}>
            <input name="metaData" {...text(draft.metaData, (v) => set({ metaData: v }))} />
          </Field>
          <Field label={t.create.language}>
            <select value={draft.language} onChange={(e) => set({ language: (e.target as HTMLSelectElement).value as Language })}>
              {APP_LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t.create.folder}>
            <select value={draft.folderId} onChange={(e) => set({ folderId: (e.target as HTMLSelectElement).value })}>
              <option value="">{t.create.noFolder}</option>
              {(folders.data ?? []).map((f) => (
                <option key={f.id} value={String(f.id)}>
                  {f.title}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t.create.expireAt}>
            <input type="date" name="expireAt" {...text(draft.expireAt, (v) => set({ expireAt: v }))} />
          </Field>
          <Field label={t.create.files} hint={t.create.filesHint}>
            <input
              type="file"
              name="files"
              accept="application/pdf,.pdf"
              multiple
              onChange={(e) => setFiles([...((e.target as HTMLInputElement).files ?? [])])}
            />
          </Field>
        </fieldset>

        <fieldset>
          <legend>{t.create.signers}</legend>
          {draft.signers.map((s, i) => (
            <div class="group signer" key={s.key}>
              <Field label={t.create.signerName}>
                <input name={`signer-${i}-name`} required autoComplete="off" {...text(s.name, (v) => setSigner(s.key, { name: v }))} />
              </Field>
              <Field label={t.create.signerEmail}>
                <input type="email" name={`signer-${i}-email`} required autoComplete="off" {...text(s.email, (v) => setSigner(s.key, { email: v }))} />
              </Field>
              <Field label={t.create.signerRole}>
                <input name={`signer-${i}-role`} {...text(s.role, (v) => setSigner(s.key, { role: v }))} />
              </Field>
              <Field label={t.create.signerOrder}>
                <input type="number" min={1} name={`signer-${i}-order`} {...text(s.order, (v) => setSigner(s.key, { order: v }))} />
              </Field>
              <Field label={t.create.signerLanguage}>
                <select value={s.language} onChange={(e) => setSigner(s.key, { language: (e.target as HTMLSelectElement).value as Language | "" })}>
                  <option value="">{LANGUAGE_NAMES[draft.language]}</option>
                  {APP_LANGUAGES.map((l) => (
                    <option key={l} value={l}>
                      {LANGUAGE_NAMES[l]}
                    </option>
                  ))}
                </select>
              </Field>
              <fieldset class="methods">
                <legend>{t.create.methods}</legend>
                {METHODS.map((m) => (
                  <label key={m} class="check">
                    <input
                      type="checkbox"
                      checked={s.methods.includes(m)}
                      onChange={(e) =>
                        setSigner(s.key, { methods: (e.target as HTMLInputElement).checked ? [...s.methods, m] : s.methods.filter((x) => x !== m) })
                      }
                    />
                    {t.methods[m]}
                  </label>
                ))}
              </fieldset>
              {secureMethods.length > 0 ? (
                <fieldset class="methods">
                  <legend>{t.create.secureMethods}</legend>
                  {secureMethods.map((m) => {
                    const ticked = s.secure ?? secureMethods;
                    return (
                      <label key={m} class="check">
                        <input
                          type="checkbox"
                          name={`signer-${i}-secure`}
                          value={m}
                          checked={ticked.includes(m)}
                          onChange={(e) =>
                            setSigner(s.key, { secure: (e.target as HTMLInputElement).checked ? [...ticked, m] : ticked.filter((x) => x !== m) })
                          }
                        />
                        <code>{m}</code>
                      </label>
                    );
                  })}
                </fieldset>
              ) : null}
              {draft.signers.length > 1 ? (
                <button type="button" class="secondary" onClick={() => set({ signers: draft.signers.filter((x) => x.key !== s.key) })}>
                  {t.create.removeSigner(s.name || String(i + 1))}
                </button>
              ) : null}
            </div>
          ))}
          <button type="button" class="secondary" onClick={() => set({ signers: [...draft.signers, newSigner(nextKey(), draft.signers.length + 1)] })}>
            {t.create.addSigner}
          </button>
        </fieldset>

        <fieldset>
          <legend>{t.create.copyRecipients}</legend>
          {draft.cc.map((c, i) => (
            <div class="group" key={c.key}>
              <Field label={t.create.signerName}>
                <input name={`cc-${i}-name`} required {...text(c.name, (v) => setCc(c.key, { name: v }))} />
              </Field>
              <Field label={t.create.signerEmail}>
                <input type="email" name={`cc-${i}-email`} required {...text(c.email, (v) => setCc(c.key, { email: v }))} />
              </Field>
              <button type="button" class="secondary" onClick={() => set({ cc: draft.cc.filter((x) => x.key !== c.key) })}>
                {t.create.removeCopyRecipient(c.name || String(i + 1))}
              </button>
            </div>
          ))}
          <button type="button" class="secondary" onClick={() => set({ cc: [...draft.cc, { key: nextKey(), name: "", email: "" }] })}>
            {t.create.addCopyRecipient}
          </button>
        </fieldset>

        <fieldset>
          <legend>{t.create.when}</legend>
          {(["now", "at", "draft"] as const).map((w) => (
            <label key={w} class="check">
              <input type="radio" name="when" value={w} checked={draft.when === w} onChange={() => set({ when: w })} />
              {w === "now" ? t.create.sendNow : w === "at" ? t.create.sendAt : t.create.draft}
            </label>
          ))}
          {draft.when === "at" ? (
            <Field label={t.create.sendAtTime}>
              <input type="datetime-local" name="sendAt" required {...text(draft.sendAt, (v) => set({ sendAt: v }))} />
            </Field>
          ) : null}
        </fieldset>

        {progress?.phase === "upload" ? (
          <div class="progress" role="status">
            <label>
              {t.create.uploading} {progress.percent}%
              <progress max={100} value={progress.percent} />
            </label>
          </div>
        ) : null}
        {progress?.phase === "processing" ? (
          <div class="progress" role="status">
            <label>
              {t.create.processing}
              <progress />
            </label>
          </div>
        ) : null}
        {progress?.phase === "failed" ? (
          <Notice kind="error">
            {t.create.failed}: {progress.message}
          </Notice>
        ) : null}
        <button type="submit" class="primary" disabled={busy}>
          {t.create.submit}
        </button>
      </form>
    </section>
  );
}
