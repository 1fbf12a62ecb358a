import { useState } from "preact/hooks";
import { EVENT_TYPES, type DeliveryAttempt, type Subscription } from "@esign/sdk/browser";
import { client } from "../api";
import { formatDate, useI18n } from "../i18n";
import { href, navigate } from "../router";
import { useStored } from "../stored";
import { ActionButton, ErrorNotice, Field, Loading, Notice, Refusal, useLoad } from "../ui";
import { DeliverySettings, RecoverWindow, SecretRotation } from "./webhook-controls";

type EventName = (typeof EVENT_TYPES)[number];
// The test event is sent on request to any subscription; nobody subscribes to it.
const EVENT_NAMES = EVENT_TYPES.filter((e) => e !== "webhook.subscription.test") as EventName[];

function AdminOnly() {
  const { t } = useI18n();
  return <Refusal message={t.webhooks.adminOnly} />;
}

/** Endpoint and event types: the create form and the edit form are the same fields. */
function SubscriptionForm({
  storeKey,
  initial,
  submitLabel,
  onSubmit,
}: {
  storeKey: string;
  initial: { endpoint: string; eventTypes: EventName[] };
  submitLabel: string;
  onSubmit: (v: { endpoint: string; eventTypes: EventName[] }) => Promise<void>;
}) {
  const { t } = useI18n();
  const [value, setValue, clear] = useStored(storeKey, initial);
  const [error, setError] = useState<unknown>();
  const toggle = (name: EventName, on: boolean) =>
    setValue({ ...value, eventTypes: on ? [...value.eventTypes, name] : value.eventTypes.filter((n) => n !== name) });
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        setError(undefined);
        try {
          await onSubmit(value);
          clear();
        } catch (err) {
          setError(err);
        }
      }}
    >
      <Field label={t.webhooks.endpoint}>
        <input
          type="url"
          name="endpoint"
          required
          value={value.endpoint}
          onInput={(e) => setValue({ ...value, endpoint: (e.target as HTMLInputElement).value })}
        />
      </Field>
      <fieldset class="events">
        <legend>{t.webhooks.events}</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={value.eventTypes.length === EVENT_NAMES.length}
            onChange={(e) => setValue({ ...value, eventTypes: (e.target as HTMLInputElement).checked ? [...EVENT_NAMES] : [] })}
          />
          {t.webhooks.allEvents}
        </label>
        {EVENT_NAMES.map((name) => (
          <label class="check" key={name}>
            <input type="checkbox" checked={value.eventTypes.includes(name)} onChange={(e) => toggle(name, (e.target as HTMLInputElement).checked)} />
            <code>{name}</code>
          </label>
        ))}
      </fieldset>
      <ErrorNotice error={error} />
      <button type="submit" class="primary">
        {submitLabel}
      </button>
    </form>
  );
}

export function WebhooksPage({ admin }: { admin: boolean }) {
  const { t } = useI18n();
  const list = useLoad(() => (admin ? client.subscriptions.list() : Promise.resolve([])), [admin]);
  if (!admin) return <AdminOnly />;
  return (
    <section>
      <h1>{t.webhooks.title}</h1>
      <ErrorNotice error={list.error} />
      {!list.data && !list.error ? <Loading /> : null}
      {list.data && list.data.length === 0 ? <p>{t.webhooks.none}</p> : null}
      <ul class="rows">
        {(list.data ?? []).map((s) => (
          <li class="row" key={s.id}>
            <a class="row-title" href={href.webhook(s.id)}>
              {s.endpoint}
            </a>
            <span class={`badge ${s.isActive ? "completed" : "deleted"}`}>{s.isActive ? t.webhooks.active : t.webhooks.inactive}</span>
            <span class="row-meta">{s.eventTypes.join(", ")}</span>
          </li>
        ))}
      </ul>
      <h2>{t.webhooks.new}</h2>
      <SubscriptionForm
        storeKey="webhooks.new"
        initial={{ endpoint: "", eventTypes: [...EVENT_NAMES] }}
        submitLabel={t.webhooks.create}
        onSubmit={async (v) => {
          const created = await client.subscriptions.create(v);
          navigate(href.webhook(created.id));
        }}
      />
    </section>
  );
}

/** The delivery log; `round` changes when something else (a finished recover) has added to it. */
function Deliveries({ subscription, round }: { subscription: Subscription; round: number }) {
  const { t, lang } = useI18n();
  const log = useLoad(() => client.subscriptions.deliveries(subscription.id, { limit: 50 }), [subscription.id, round]);
  const [note, setNote] = useState("");
  return (
    <>
      <h2>{t.webhooks.deliveries}</h2>
      <ActionButton label={t.webhooks.refresh} run={async () => log.reload()} />
      {note ? <Notice kind="ok">{note}</Notice> : null}
      <ErrorNotice error={log.error} />
      {!log.data && !log.error ? <Loading /> : null}
      {log.data && log.data.data.length === 0 ? <p>{t.webhooks.noDeliveries}</p> : null}
      {log.data && log.data.data.length > 0 ? (
        <div class="table-wrap">
          <table class="deliveries">
            <caption class="visually-hidden">{t.webhooks.deliveries}</caption>
            <thead>
              <tr>
                <th scope="col">{t.caseFile.when}</th>
                <th scope="col">{t.caseFile.event}</th>
                <th scope="col">{t.webhooks.attempt}</th>
                <th scope="col">{t.webhooks.outcome}</th>
                <th scope="col">{t.webhooks.httpStatus}</th>
                <th scope="col">{t.webhooks.duration}</th>
                <th scope="col">{t.webhooks.cause}</th>
                <th scope="col">
                  <span class="visually-hidden">{t.webhooks.redeliver}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {log.data.data.map((a: DeliveryAttempt) => (
                <tr key={a.id} data-outcome={a.outcome}>
                  <td>{formatDate(lang, a.createdAt)}</td>
                  <td>
                    <code title={a.eventId}>{a.eventId.slice(0, 8)}</code>
                  </td>
                  <td>{a.attemptNumber}</td>
                  <td>{a.outcome}</td>
                  <td>{a.httpStatus ?? "–"}</td>
                  <td>{a.durationMs} ms</td>
                  <td>{a.cause}</td>
                  <td>
                    <ActionButton
                      label={t.webhooks.redeliver}
                      run={async () => {
                        await client.subscriptions.redeliver(subscription.id, a.eventId);
                        setNote(t.webhooks.redelivered);
                        log.reload();
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

export function WebhookPage({ id, admin }: { id: string; admin: boolean }) {
  const { t } = useI18n();
  const loaded = useLoad(() => (admin ? client.subscriptions.get(id) : Promise.reject(new Error("admin only"))), [id, admin]);
  const [showSecret, setShowSecret] = useState(false);
  const [editing, setEditing] = useState(false);
  const [note, setNote] = useState("");
  const [logRound, setLogRound] = useState(0);
  if (!admin) return <AdminOnly />;
  if (loaded.error) return <ErrorNotice error={loaded.error} />;
  if (!loaded.data) return <Loading />;
  const s = loaded.data;
  return (
    <article>
      <h1>
        {s.endpoint} <span class={`badge ${s.isActive ? "completed" : "deleted"}`}>{s.isActive ? t.webhooks.active : t.webhooks.inactive}</span>
      </h1>
      <div class="actions">
        <ActionButton
          label={s.isActive ? t.webhooks.disable : t.webhooks.enable}
          run={async () => {
            await client.subscriptions.update(s.id, { isActive: !s.isActive });
            loaded.reload();
          }}
        />
        <ActionButton
          label={t.webhooks.test}
          run={async () => {
            await client.subscriptions.sendTest(s.id);
            setNote(t.webhooks.testSent);
          }}
        />
        <button type="button" class="secondary" aria-expanded={editing} onClick={() => setEditing(!editing)}>
          {t.webhooks.edit}
        </button>
        <button type="button" class="secondary" aria-expanded={showSecret} onClick={() => setShowSecret(!showSecret)}>
          {showSecret ? t.webhooks.hideSecret : t.webhooks.showSecret}
        </button>
      </div>
      {note ? <Notice kind="ok">{note}</Notice> : null}
      {showSecret ? (
        <p>
          {t.webhooks.secret}: <code class="secret">{s.secret}</code>
        </p>
      ) : null}
      {editing ? (
        <SubscriptionForm
          storeKey={`webhooks.edit.${s.id}`}
          initial={{ endpoint: s.endpoint, eventTypes: s.eventTypes as EventName[] }}
          submitLabel={t.webhooks.save}
          onSubmit={async (v) => {
            await client.subscriptions.update(s.id, v);
            setEditing(false);
            loaded.reload();
          }}
        />
      ) : (
        <p class="row-meta">{s.eventTypes.join(", ")}</p>
      )}
      <SecretRotation subscription={s} onChange={loaded.reload} />
      <DeliverySettings subscription={s} onChange={loaded.reload} />
      <RecoverWindow subscription={s} onDone={() => setLogRound((r) => r + 1)} />
      <Deliveries subscription={s} round={logRound} />
    </article>
  );
}
