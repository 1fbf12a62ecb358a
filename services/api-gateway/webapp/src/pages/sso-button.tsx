import { useEffect, useState } from "preact/hooks";
import type { SsoConfig } from "@esign/sdk/browser";
import { client } from "../api";
import { useI18n } from "../i18n";
import { Notice } from "../ui";

type Refusal = "unknown_user" | "email_unverified" | "cancelled" | "failed" | "unavailable";
const REFUSALS: readonly string[] = ["unknown_user", "email_unverified", "cancelled", "failed", "unavailable"] satisfies Refusal[];

/** The gateway sends a refused single sign-on back to /app/?sso=<reason>. */
function refusalOfAddress(): Refusal | null {
  const reason = new URLSearchParams(location.search).get("sso");
  return reason && REFUSALS.includes(reason) ? (reason as Refusal) : null;
}

/**
 * "Sign in with <provider>" when the gateway offers single sign-on: a plain link to the start route
 * (the provider's pages are a navigation, not a call), and the reason when a sign-in came back refused.
 */
export function SsoButton() {
  const { t } = useI18n();
  const [config, setConfig] = useState<SsoConfig | null>(null);
  const refusal = refusalOfAddress();
  useEffect(() => {
    // No offer when it cannot be read: the password form still works.
    client.sessions.ssoConfig().then(setConfig, () => setConfig(null));
  }, []);
  return (
    <>
      {refusal ? <Notice kind="error">{t.signIn.ssoRefused[refusal]}</Notice> : null}
      {config?.enabled && config.startUrl && config.displayName ? (
        <div class="sso">
          <p class="hint">{t.signIn.or}</p>
          <a class="button-link" href={config.startUrl}>
            {t.signIn.sso(config.displayName)}
          </a>
        </div>
      ) : null}
    </>
  );
}
