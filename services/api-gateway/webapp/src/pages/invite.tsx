import { useState } from "preact/hooks";
import { client } from "../api";
import { useI18n } from "../i18n";
import { Field, Loading, Notice, ErrorNotice, useLoad } from "../ui";

export function InvitePage({ token }: { token: string }) {
  const { t } = useI18n();
  const invitation = useLoad(() => client.sessions.invitation(token), [token]);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<unknown>();
  if (invitation.error) return <Notice kind="error">{t.invite.invalid}</Notice>;
  if (!invitation.data) return <Loading />;
  return (
    <section class="card">
      <h1>{t.invite.title}</h1>
      <p>{t.invite.intro(invitation.data.customerName)}</p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setError(undefined);
          try {
            // Accepting signs the new user in: the application opens with the session.
            await client.sessions.acceptInvitation(token, { name, password });
            window.location.assign("/app/");
          } catch (err) {
            setError(err);
          }
        }}
      >
        <Field label={t.signIn.email}>
          <input type="email" value={invitation.data.email} readOnly autoComplete="username" />
        </Field>
        <Field label={t.invite.name}>
          <input name="name" required autoComplete="name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </Field>
        <Field label={t.invite.password}>
          <input
            type="password"
            name="password"
            required
            minLength={12}
            autoComplete="new-password"
            value={password}
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
          />
        </Field>
        <ErrorNotice error={error} />
        <button type="submit" class="primary">
          {t.invite.submit}
        </button>
      </form>
    </section>
  );
}
