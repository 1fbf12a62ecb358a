import { render, type ComponentChildren } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Language, Session } from "@esign/sdk/browser";
import { client } from "./api";
import { APP_LANGUAGES, I18n, LANGUAGE_NAMES, initialLanguage, messagesFor, useI18n } from "./i18n";
import { ArchivePage } from "./pages/archive";
import { CaseFilePage } from "./pages/case-file";
import { CompanyPage } from "./pages/company";
import { CreatePage } from "./pages/create";
import { InvitePage } from "./pages/invite";
import { SignInPage } from "./pages/sign-in";
import { WebhookPage, WebhooksPage } from "./pages/webhooks";
import { href, useRoute, type Route } from "./router";
import { ErrorNotice, Loading } from "./ui";

function LanguagePicker({ lang, onChange }: { lang: Language; onChange: (l: Language) => void }) {
  const { t } = useI18n();
  return (
    <label class="language">
      <span class="label">{t.language}</span>
      <select value={lang} onChange={(e) => onChange((e.target as HTMLSelectElement).value as Language)}>
        {APP_LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}

function Page({ route, session }: { route: Route; session: Session }) {
  const admin = session.user.role === "admin";
  switch (route.page) {
    case "casefile":
      return <CaseFilePage id={route.id} />;
    case "create":
      return <CreatePage />;
    case "webhooks":
      return <WebhooksPage admin={admin} />;
    case "webhook":
      return <WebhookPage id={route.id} admin={admin} />;
    case "company":
      return <CompanyPage admin={admin} />;
    default:
      return <ArchivePage />;
  }
}

function Shell({ session, onSignOut, lang, setLang }: { session: Session; onSignOut: () => void; lang: Language; setLang: (l: Language) => void }) {
  const { t } = useI18n();
  const route = useRoute();
  const admin = session.user.role === "admin";
  const current = (page: Route["page"][]) => (page.includes(route.page) ? "page" : undefined);
  return (
    <>
      <a class="skip" href="#main">
        {t.skip}
      </a>
      <header class="top">
        <a class="brand" href={href.archive}>
          {t.appName}
        </a>
        <span class="who">
          {session.user.name} · {session.user.customerName}
        </span>
        <nav aria-label={t.nav.menu}>
          <a href={href.archive} aria-current={current(["archive", "casefile"])}>
            {t.nav.archive}
          </a>
          <a href={href.create} aria-current={current(["create"])}>
            {t.nav.create}
          </a>
          {admin ? (
            <a href={href.webhooks} aria-current={current(["webhooks", "webhook"])}>
              {t.nav.webhooks}
            </a>
          ) : null}
          {admin ? (
            <a href={href.company} aria-current={current(["company"])}>
              {t.nav.company}
            </a>
          ) : null}
        </nav>
        <LanguagePicker lang={lang} onChange={setLang} />
        <button type="button" class="secondary" onClick={onSignOut}>
          {t.nav.signOut}
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} session={session} />
      </main>
    </>
  );
}

function App() {
  const [lang, setLangState] = useState<Language>(initialLanguage);
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [error, setError] = useState<unknown>();
  const route = useRoute();
  const i18n = useMemo(() => ({ lang, t: messagesFor(lang) }), [lang]);
  const setLang = (l: Language) => {
    localStorage.setItem("esign.language", l);
    setLangState(l);
  };
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = i18n.t.appName;
  }, [lang, i18n]);
  useEffect(() => {
    if (route.page === "invite") return;
    client.resume().then(setSession, setError);
  }, [route.page]);
  const signOut = async () => {
    await client.signOut().catch(() => undefined);
    sessionStorage.clear();
    setSession(null);
  };

  let body: ComponentChildren;
  if (route.page === "invite") body = <InvitePage token={route.token} />;
  else if (error) body = <ErrorNotice error={error} />;
  else if (session === undefined) body = <Loading />;
  else if (session === null) body = <SignInPage onSignedIn={setSession} />;
  else body = <Shell session={session} onSignOut={signOut} lang={lang} setLang={setLang} />;
  const bare = route.page === "invite" || !session;
  return (
    <I18n.Provider value={i18n}>
      {bare ? (
        <main id="main" class="narrow">
          <div class="bare-language">
            <LanguagePicker lang={lang} onChange={setLang} />
          </div>
          {body}
        </main>
      ) : (
        body
      )}
    </I18n.Provider>
  );
}

render(<App />, document.getElementById("app")!);
