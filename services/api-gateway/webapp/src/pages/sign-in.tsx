import { useState } from "preact/hooks";
import type { Session } from "@esign/sdk/browser";
import { client } from "../api";
import { useI18n } from "../i18n";
import { useStored } from "../stored";
import { Field, Notice } from "../ui";
import { SsoButton } from "./sso-button";

export function SignInPage({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const { t } = useI18n();
  // The email survives a reload; the password is never stored.
  const [email, setEmail] = useStored("signin.email", "");
  const [password, setPassword] = useState("");
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <section class="card">
      <h1>{t.signIn.title}</h1>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setFailed(false);
          try {
            onSignedIn(await client.signIn(email, password));
          } catch {
            setFailed(true);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label={t.signIn.email}>
          <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
        </Field>
        <Field label={t.signIn.password}>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
          />
        </Field>
        {failed ? <Notice kind="error">{t.signIn.failed}</Notice> : null}
        <button type="submit" class="primary" disabled={busy}>
          {t.signIn.submit}
        </button>
      </form>
      <SsoButton />
    </section>
  );
}
