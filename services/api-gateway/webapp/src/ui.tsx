import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { describeError } from "./api";
import { useI18n } from "./i18n";

/** A message that assistive technology announces: `role="status"` for news, `role="alert"` for failures. */
export function Notice({ kind, children }: { kind: "ok" | "error"; children: ComponentChildren }) {
  return (
    <p class={`notice ${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}

export function ErrorNotice({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (error === undefined || error === null) return null;
  return (
    <Notice kind="error">
      {t.common.error}: {describeError(error)}
    </Notice>
  );
}

export function Loading() {
  const { t } = useI18n();
  return (
    <p class="loading" role="status">
      {t.common.loading}
    </p>
  );
}

/** Loads once per `deps` change; `reload` fetches again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: unknown; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ data }),
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
    // The caller names what the load depends on (deps), and a reload bumps the round.
  }, [...deps, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}

/** A button that runs an action, shows it is busy and reports a failure next to itself. */
export function ActionButton({ label, run, kind = "secondary" }: { label: string; run: () => Promise<unknown>; kind?: "primary" | "secondary" | "danger" }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  return (
    <span class="action">
      <button
        type="button"
        class={kind}
        disabled={busy}
        aria-busy={busy}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            await run();
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        {label}
      </button>
      <ErrorNotice error={error} />
    </span>
  );
}

export function Field({ label, children, hint }: { label: string; children: ComponentChildren; hint?: string }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child every caller passes in
    <label class="field">
      <span class="label">{label}</span>
      {children}
      {hint ? <span class="hint">{hint}</span> : null}
    </label>
  );
}

/** What a member sees at an administrator's address (typed in or bookmarked): a page that says no. */
export function Refusal({ message }: { message: string }) {
  const { t } = useI18n();
  return (
    <section>
      <h1>{t.company.refused}</h1>
      <Notice kind="error">{message}</Notice>
    </section>
  );
}
