import { useState } from "preact/hooks";
import { SECURE_SIGNING_METHODS } from "@esign/schema";
import type { Company, Folder, Language, NewCredential, User } from "@esign/sdk/browser";
import { client } from "../api";
import { APP_LANGUAGES, formatDate, LANGUAGE_NAMES, useI18n } from "../i18n";
import { useStored } from "../stored";
import { ActionButton, ErrorNotice, Field, Loading, Notice, Refusal, useLoad } from "../ui";

/** The electronic IDs a customer may enable for its signers (typed, drawn and image signatures are always there). */
const SIGNING_METHODS = SECURE_SIGNING_METHODS;

function Channels({ company, onChange }: { company: Company; onChange: () => void }) {
  const { t } = useI18n();
  const eboks = company.channels.eboks;
  return (
    <section aria-labelledby="channels">
      <h2 id="channels">{t.company.channels}</h2>
      <dl class="facts">
        <dt>{t.company.emailChannel}</dt>
        <dd>{company.channels.email ? t.company.eboksGranted : t.company.eboksNone}</dd>
        <dt>{t.company.eboksChannel}</dt>
        <dd data-eboks={eboks}>{eboks === "granted" ? t.company.eboksGranted : eboks === "requested" ? t.company.eboksRequested : t.company.eboksNone}</dd>
      </dl>
      {eboks === "none" ? (
        <ActionButton
          label={t.company.requestEboks}
          run={async () => {
            await client.company.requestEboks();
            onChange();
          }}
        />
      ) : null}
    </section>
  );
}

/** The settings form's fields as the company holds them. */
const settingsForm = (company: Company) => ({
  language: company.language,
  signingMethods: company.signingMethods,
  recycleBinDays: String(company.recycleBinDays),
});

function Settings({ company, onChange }: { company: Company; onChange: () => void }) {
  const { t } = useI18n();
  const [form, setForm, clear] = useStored(`company.${company.id}`, settingsForm(company));
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>();
  return (
    <form
      aria-labelledby="settings"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(undefined);
        try {
          const saved = await client.company.update({
            language: form.language,
            signingMethods: form.signingMethods,
            recycleBinDays: Number(form.recycleBinDays),
          });
          clear(settingsForm(saved));
          setSaved(true);
          onChange();
        } catch (err) {
          setError(err);
        }
      }}
    >
      <h2 id="settings">{t.company.signingMethods}</h2>
      <fieldset class="methods">
        <legend>{t.company.signingMethods}</legend>
        {SIGNING_METHODS.map((m) => (
          <label class="check" key={m}>
            <input
              type="checkbox"
              checked={form.signingMethods.includes(m)}
              onChange={(e) =>
                setForm({
                  ...form,
                  signingMethods: (e.target as HTMLInputElement).checked ? [...form.signingMethods, m] : form.signingMethods.filter((x) => x !== m),
                })
              }
            />
            <code>{m}</code>
          </label>
        ))}
      </fieldset>
      <Field label={t.company.defaultLanguage}>
        <select value={form.language} onChange={(e) => setForm({ ...form, language: (e.target as HTMLSelectElement).value as Language })}>
          {APP_LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t.company.recycleBin}>
        <input
          type="number"
          min={1}
          name="recycleBinDays"
          value={form.recycleBinDays}
          onInput={(e) => setForm({ ...form, recycleBinDays: (e.target as HTMLInputElement).value })}
        />
      </Field>
      <ErrorNotice error={error} />
      {saved ? <Notice kind="ok">{t.company.saved}</Notice> : null}
      <button type="submit" class="primary">
        {t.company.save}
      </button>
    </form>
  );
}

function UsersSection() {
  const { t } = useI18n();
  const users = useLoad(() => client.users.list(), []);
  const [invite, setInvite, clear] = useStored("company.invite", { email: "", name: "", role: "member" as "admin" | "member" });
  const [note, setNote] = useState("");
  const [error, setError] = useState<unknown>();
  return (
    <section aria-labelledby="users">
      <h2 id="users">{t.company.users}</h2>
      <ErrorNotice error={users.error} />
      <ul class="rows">
        {(users.data ?? []).map((u) => (
          <li class="row" key={u.id}>
            <span class="row-title">{u.name}</span>
            <span class="badge">{u.role === "admin" ? t.company.admin : t.company.member}</span>
            <span class="row-meta">{u.email}</span>
          </li>
        ))}
      </ul>
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(undefined);
          try {
            await client.users.invite({ email: invite.email, role: invite.role, ...(invite.name ? { name: invite.name } : {}) });
            clear();
            setNote(t.company.invited);
            users.reload();
          } catch (err) {
            setError(err);
          }
        }}
      >
        <h3>{t.company.invite}</h3>
        <Field label={t.company.inviteEmail}>
          <input
            type="email"
            name="inviteEmail"
            required
            value={invite.email}
            onInput={(e) => setInvite({ ...invite, email: (e.target as HTMLInputElement).value })}
          />
        </Field>
        <Field label={t.company.inviteName}>
          <input name="inviteName" value={invite.name} onInput={(e) => setInvite({ ...invite, name: (e.target as HTMLInputElement).value })} />
        </Field>
        <Field label={t.company.role}>
          <select value={invite.role} onChange={(e) => setInvite({ ...invite, role: (e.target as HTMLSelectElement).value as "admin" | "member" })}>
            <option value="member">{t.company.member}</option>
            <option value="admin">{t.company.admin}</option>
          </select>
        </Field>
        <ErrorNotice error={error} />
        {note ? <Notice kind="ok">{note}</Notice> : null}
        <button type="submit" class="primary">
          {t.company.invite}
        </button>
      </form>
    </section>
  );
}

/** One folder's members: the administrator ticks who may see the case files in it. */
function FolderShare({ folder, members }: { folder: Folder; members: User[] }) {
  const { t } = useI18n();
  const shares = useLoad(() => client.folders.shares(folder.id), [folder.id]);
  const [note, setNote] = useState("");
  const [error, setError] = useState<unknown>();
  const shared = new Set(shares.data ?? []);
  return (
    <fieldset class="methods">
      <legend>{folder.title}</legend>
      {members.map((u) => (
        <label class="check" key={u.id}>
          <input
            type="checkbox"
            checked={shared.has(u.id)}
            disabled={!shares.data}
            onChange={async (e) => {
              const on = (e.target as HTMLInputElement).checked;
              const userIds = on ? [...shared, u.id] : [...shared].filter((id) => id !== u.id);
              setError(undefined);
              try {
                await client.folders.setShares(folder.id, userIds);
                setNote(t.company.saved);
                shares.reload();
              } catch (err) {
                setError(err);
              }
            }}
          />
          {u.name}
        </label>
      ))}
      <ErrorNotice error={error ?? shares.error} />
      {note ? <Notice kind="ok">{note}</Notice> : null}
    </fieldset>
  );
}

function FoldersSection() {
  const { t } = useI18n();
  const folders = useLoad(() => client.folders.list(), []);
  const users = useLoad(() => client.users.list(), []);
  const members = (users.data ?? []).filter((u) => u.role === "member");
  if (!folders.data || folders.data.length === 0 || members.length === 0) return null;
  return (
    <section aria-labelledby="folders">
      <h2 id="folders">{t.company.folders}</h2>
      <p class="hint">{t.company.foldersHint}</p>
      {folders.data.map((f) => (
        <FolderShare key={f.id} folder={f} members={members} />
      ))}
    </section>
  );
}

function NewSecrets({ secrets }: { secrets: NewCredential }) {
  const { t } = useI18n();
  return (
    <div class="secrets" role="status">
      <p>
        <strong>{t.company.secretOnce}</strong>
      </p>
      <dl class="facts">
        <dt>{t.company.clientId}</dt>
        <dd>
          <code>{secrets.clientId}</code>
        </dd>
        <dt>{t.company.clientSecret}</dt>
        <dd>
          <code data-secret="clientSecret">{secrets.clientSecret}</code>
        </dd>
        <dt>{t.company.apiKey}</dt>
        <dd>
          <code>{secrets.apiKey}</code>
        </dd>
        <dt>{t.company.apiSecret}</dt>
        <dd>
          <code data-secret="apiSecret">{secrets.apiSecret}</code>
        </dd>
      </dl>
    </div>
  );
}

function CredentialsSection() {
  const { t, lang } = useI18n();
  const list = useLoad(() => client.credentials.list(), []);
  // Secrets live only in this component's memory: never stored, gone on reload as promised.
  const [secrets, setSecrets] = useState<NewCredential>();
  return (
    <section aria-labelledby="credentials">
      <h2 id="credentials">{t.company.credentials}</h2>
      <ErrorNotice error={list.error} />
      {secrets ? <NewSecrets secrets={secrets} /> : null}
      <ActionButton
        kind="primary"
        label={t.company.newCredential}
        run={async () => {
          setSecrets(await client.credentials.create());
          list.reload();
        }}
      />
      <ul class="rows">
        {(list.data ?? []).map((c) => (
          <li class="row" key={c.id}>
            <span class="row-title">
              <code>{c.clientId}</code>
            </span>
            {c.revokedAt ? <span class="badge deleted">{t.company.revoked}</span> : null}
            <span class="row-meta">
              {c.apiKey ? (
                <span>
                  {t.company.apiKey}: <code>{c.apiKey}</code>
                </span>
              ) : null}
              <span>
                {t.company.created}: {formatDate(lang, c.createdAt)}
              </span>
              <span>
                {t.company.lastUsed}: {c.lastUsedAt ? formatDate(lang, c.lastUsedAt) : t.company.never}
              </span>
            </span>
            {c.revokedAt ? null : (
              <span class="row-actions">
                <ActionButton
                  label={t.company.rotate}
                  run={async () => {
                    setSecrets(await client.credentials.rotate(c.id));
                    list.reload();
                  }}
                />
                <ActionButton
                  kind="danger"
                  label={t.company.revoke}
                  run={async () => {
                    await client.credentials.revoke(c.id);
                    list.reload();
                  }}
                />
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function CompanyPage({ admin }: { admin: boolean }) {
  const { t } = useI18n();
  const company = useLoad(() => (admin ? client.company.get() : Promise.reject(new Error(t.company.adminOnly))), [admin]);
  // The API refuses a member too (403); the page says so without asking.
  if (!admin) return <Refusal message={t.company.adminOnly} />;
  if (company.error) return <ErrorNotice error={company.error} />;
  if (!company.data) return <Loading />;
  return (
    <section>
      <h1>
        {t.company.title}: {company.data.name}
      </h1>
      <Channels company={company.data} onChange={company.reload} />
      <Settings company={company.data} onChange={company.reload} />
      <UsersSection />
      <FoldersSection />
      <CredentialsSection />
    </section>
  );
}
