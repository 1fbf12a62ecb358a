import { useState } from "preact/hooks";
import type { CaseFile } from "@esign/sdk/browser";
import { client } from "../api";
import { formatDate, useI18n } from "../i18n";
import { href } from "../router";
import { caseFileStatusName, signerStatusName, TABS, type Tab } from "../status";
import { useStored } from "../stored";
import { ErrorNotice, Loading, useLoad } from "../ui";

const PER_PAGE = 25;

/** The status of a case file and of each signer, at a glance: a badge and "2/3 signed". */
function Row({ caseFile }: { caseFile: CaseFile }) {
  const { t, lang } = useI18n();
  const status = caseFileStatusName(caseFile.status);
  const signed = caseFile.signers.filter((s) => signerStatusName(s) === "signed").length;
  return (
    <li class="row">
      <a href={href.caseFile(caseFile.id)} class="row-title">
        {caseFile.title}
      </a>
      <span class={`badge ${status}`}>{t.status[status]}</span>
      <span class="row-meta">
        {caseFile.reference ? <span>{caseFile.reference}</span> : null}
        <span>
          {t.archive.signers}: {signed}/{caseFile.signers.length}
        </span>
        <span>
          {t.archive.created}: {formatDate(lang, caseFile.createdAt)}
        </span>
      </span>
    </li>
  );
}

export function ArchivePage() {
  const { t } = useI18n();
  const [tab, setTab] = useStored<Tab>("archive.tab", "pending");
  const [query, setQuery] = useStored("archive.query", "");
  const [folderId, setFolderId] = useStored("archive.folder", "");
  const [applied, setApplied] = useState(query);
  const [pages, setPages] = useState(1);
  const folders = useLoad(() => client.folders.list(), []);
  const list = useLoad(async () => {
    const text = applied.trim();
    const base = { status: [...TABS[tab].status], perPage: PER_PAGE * pages, ...(folderId ? { folderIds: [Number(folderId)] } : {}) };
    if (text === "") return client.caseFiles.list(base);
    // One box for title (contains), reference and metaData (exact): three searches, merged.
    const answers = await Promise.all([
      client.caseFiles.list({ ...base, title: text }),
      client.caseFiles.list({ ...base, reference: text }),
      client.caseFiles.list({ ...base, metaData: text }),
    ]);
    const seen = new Map<number, CaseFile>();
    for (const a of answers) for (const c of a.items) seen.set(c.id, c);
    return { items: [...seen.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt)), nextPage: answers.find((a) => a.nextPage)?.nextPage };
  }, [tab, applied, folderId, pages]);

  return (
    <section>
      <h1>{t.archive.title}</h1>
      <form
        class="search"
        aria-label={t.archive.searchButton}
        onSubmit={(e) => {
          e.preventDefault();
          setPages(1);
          setApplied(query);
        }}
      >
        <label class="field grow">
          <span class="label">{t.archive.search}</span>
          <input type="search" name="q" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
        </label>
        <label class="field">
          <span class="label">{t.archive.folder}</span>
          <select value={folderId} onChange={(e) => setFolderId((e.target as HTMLSelectElement).value)}>
            <option value="">{t.archive.allFolders}</option>
            {(folders.data ?? []).map((f) => (
              <option key={f.id} value={String(f.id)}>
                {f.title}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary">
          {t.archive.searchButton}
        </button>
      </form>
      <fieldset class="tabs">
        <legend class="visually-hidden">{t.archive.tabs}</legend>
        {(Object.keys(TABS) as Tab[]).map((name) => (
          <button
            key={name}
            type="button"
            class={name === tab ? "tab current" : "tab"}
            aria-pressed={name === tab}
            onClick={() => {
              setPages(1);
              setTab(name);
            }}
          >
            {t.tabs[name]}
          </button>
        ))}
      </fieldset>
      <ErrorNotice error={list.error} />
      {!list.data && !list.error ? <Loading /> : null}
      {list.data ? (
        list.data.items.length === 0 ? (
          <p>{t.archive.empty}</p>
        ) : (
          <ul class="rows" aria-label={t.tabs[tab]}>
            {list.data.items.map((c) => (
              <Row key={c.id} caseFile={c} />
            ))}
          </ul>
        )
      ) : null}
      {list.data?.nextPage ? (
        <button type="button" class="secondary" onClick={() => setPages(pages + 1)}>
          {t.archive.more}
        </button>
      ) : null}
    </section>
  );
}
