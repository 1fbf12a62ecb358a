import { useEffect, useState } from "preact/hooks";
import type { RecoverTask, RotatedSecret, Subscription } from "@esign/sdk/browser";
import { client } from "../api";
import { formatDate, useI18n } from "../i18n";
import { useStored } from "../stored";
import { ActionButton, ErrorNotice, Field, Notice } from "../ui";

/*
 * The webhook controls of issue 29 on a subscription's page, each a call of the public API through the
 * SDK: secret rotation with an overlap, the overlap's early end, recovering a time window as a tracked
 * task, a per-subscription throttle and ordered delivery.
 */

const HOUR = 3600;
/** The API's longest overlap: a week (subscription-schemas.ts, MAX_OVERLAP_SECONDS). */
const MAX_OVERLAP_HOURS = 7 * 24;
/** The API's highest throttle (subscription-schemas.ts, MAX_PER_SECOND). */
const MAX_PER_SECOND = 10_000;
/** How often a running recover task's progress is read. */
const RECOVER_POLL_MS = 1000;

/** A `datetime-local` value (the person's clock) for a moment. */
function localInput(at: Date): string {
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** Rotate with an overlap (the new secret shown this once), and end a running overlap. */
export function SecretRotation({ subscription, onChange }: { subscription: Subscription; onChange: () => void }) {
  const { t, lang } = useI18n();
  const [hours, setHours] = useState("24");
  // The new secret lives only in this component's memory: shown once, gone when the page is left.
  const [rotated, setRotated] = useState<RotatedSecret>();
  const [error, setError] = useState<unknown>();
  const overlapUntil = subscription.previousSecretExpiresAt ?? null;
  return (
    <section aria-labelledby="rotation">
      <h2 id="rotation">{t.webhooks.rotation}</h2>
      {rotated ? (
        <div class="secrets" role="status">
          <p>
            <strong>{t.webhooks.newSecretOnce}</strong>
          </p>
          <p>
            {t.webhooks.secret}: <code data-secret="rotated">{rotated.secret}</code>
          </p>
        </div>
      ) : null}
      {overlapUntil ? (
        <p data-overlap-until={overlapUntil}>
          {t.webhooks.overlapUntil(formatDate(lang, overlapUntil))}{" "}
          <ActionButton
            kind="danger"
            label={t.webhooks.endOverlap}
            run={async () => {
              await client.subscriptions.revokePreviousSecret(subscription.id);
              setRotated(undefined);
              onChange();
            }}
          />
        </p>
      ) : (
        <p class="hint">{t.webhooks.noOverlap}</p>
      )}
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(undefined);
          try {
            setRotated(await client.subscriptions.rotateSecret(subscription.id, { overlapSeconds: Math.round(Number(hours) * HOUR) }));
            onChange();
          } catch (err) {
            setError(err);
          }
        }}
      >
        <Field label={t.webhooks.overlapHours} hint={t.webhooks.overlapHint}>
          <input
            type="number"
            name="overlapHours"
            min={0}
            max={MAX_OVERLAP_HOURS}
            step="any"
            required
            value={hours}
            onInput={(e) => setHours((e.target as HTMLInputElement).value)}
          />
        </Field>
        <ErrorNotice error={error} />
        <button type="submit" class="primary">
          {t.webhooks.rotate}
        </button>
      </form>
    </section>
  );
}

/** The delivery form's fields as the subscription holds them. */
function deliveryForm(subscription: Subscription) {
  const limit = subscription.maxPerSecond ?? null;
  return { limited: limit !== null, maxPerSecond: limit === null ? "" : String(limit), ordered: subscription.ordered ?? false };
}

/** The throttle (deliveries per second at most, or none) and ordered delivery, saved together. */
export function DeliverySettings({ subscription, onChange }: { subscription: Subscription; onChange: () => void }) {
  const { t } = useI18n();
  const limit = subscription.maxPerSecond ?? null;
  const [form, setForm, clear] = useStored(`webhooks.delivery.${subscription.id}`, deliveryForm(subscription));
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>();
  return (
    <form
      aria-labelledby="delivery-settings"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(undefined);
        setSaved(false);
        try {
          const saved = await client.subscriptions.update(subscription.id, {
            maxPerSecond: form.limited ? Number(form.maxPerSecond) : null,
            ordered: form.ordered,
          });
          clear(deliveryForm(saved));
          setSaved(true);
          onChange();
        } catch (err) {
          setError(err);
        }
      }}
    >
      <h2 id="delivery-settings">{t.webhooks.deliverySettings}</h2>
      <p class="hint">
        {limit === null ? t.webhooks.noThrottle : t.webhooks.throttled(limit)} · {subscription.ordered ? t.webhooks.orderedOn : t.webhooks.orderedOff}
      </p>
      <label class="check">
        <input type="checkbox" name="limited" checked={form.limited} onChange={(e) => setForm({ ...form, limited: (e.target as HTMLInputElement).checked })} />
        {t.webhooks.limitRate}
      </label>
      {form.limited ? (
        <Field label={t.webhooks.maxPerSecond} hint={t.webhooks.throttleHint}>
          <input
            type="number"
            name="maxPerSecond"
            min={1}
            max={MAX_PER_SECOND}
            step={1}
            required
            value={form.maxPerSecond}
            onInput={(e) => setForm({ ...form, maxPerSecond: (e.target as HTMLInputElement).value })}
          />
        </Field>
      ) : null}
      <label class="check">
        <input type="checkbox" name="ordered" checked={form.ordered} onChange={(e) => setForm({ ...form, ordered: (e.target as HTMLInputElement).checked })} />
        {t.webhooks.ordered}
      </label>
      <p class="hint">{t.webhooks.orderedHint}</p>
      <ErrorNotice error={error} />
      {saved ? <Notice kind="ok">{t.webhooks.settingsSaved}</Notice> : null}
      <button type="submit" class="primary">
        {t.webhooks.saveSettings}
      </button>
    </form>
  );
}

const finished = (task: RecoverTask) => task.state === "cancelled" || (task.state === "completed" && task.delivered >= (task.total ?? 0));

/** A recover task's progress, read again until it has finished. */
function RecoverProgress({ subscriptionId, initial, onDone }: { subscriptionId: string; initial: RecoverTask; onDone: () => void }) {
  const { t } = useI18n();
  const [task, setTask] = useState(initial);
  const [error, setError] = useState<unknown>();
  const done = finished(task);
  useEffect(() => {
    if (done) {
      onDone();
      return;
    }
    const timer = setTimeout(() => {
      client.subscriptions.recoverTask(subscriptionId, task.id).then(
        (next) => {
          setError(undefined);
          setTask(next);
        },
        // A failed read is shown and tried again on the next round.
        (err: unknown) => {
          setError(err);
          setTask({ ...task });
        },
      );
    }, RECOVER_POLL_MS);
    return () => clearTimeout(timer);
  }, [task]);
  const total = task.total ?? 0;
  return (
    <div class="progress" data-recover-state={task.state}>
      <label>
        {t.webhooks.recoverProgress}
        <progress max={Math.max(total, 1)} value={task.total === null ? undefined : task.delivered} />
      </label>
      <p role="status">
        {task.state === "cancelled"
          ? t.webhooks.recoverCancelled
          : done
            ? t.webhooks.recoverDone(task.delivered, total)
            : t.webhooks.recoverRunning(task.queued, task.delivered, task.total)}
      </p>
      <ErrorNotice error={error} />
    </div>
  );
}

/** Recover a time window: its failed deliveries (or all) delivered again, each event once. */
export function RecoverWindow({ subscription, onDone }: { subscription: Subscription; onDone: () => void }) {
  const { t } = useI18n();
  const [form, setForm] = useState(() => ({ since: localInput(new Date(Date.now() - 24 * HOUR * 1000)), until: "", all: false }));
  const [task, setTask] = useState<RecoverTask>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>();
  return (
    <section aria-labelledby="recover">
      <h2 id="recover">{t.webhooks.recover}</h2>
      <p class="hint">{t.webhooks.recoverHint}</p>
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(undefined);
          try {
            const started = await client.subscriptions.recover(subscription.id, {
              since: new Date(form.since),
              ...(form.until ? { until: new Date(form.until) } : {}),
              all: form.all,
            });
            setRunning(true);
            setTask(started);
          } catch (err) {
            setError(err);
          }
        }}
      >
        <Field label={t.webhooks.recoverSince}>
          <input
            type="datetime-local"
            name="recoverSince"
            required
            value={form.since}
            onInput={(e) => setForm({ ...form, since: (e.target as HTMLInputElement).value })}
          />
        </Field>
        <Field label={t.webhooks.recoverUntil} hint={t.webhooks.recoverUntilHint}>
          <input
            type="datetime-local"
            name="recoverUntil"
            value={form.until}
            onInput={(e) => setForm({ ...form, until: (e.target as HTMLInputElement).value })}
          />
        </Field>
        <label class="check">
          <input type="checkbox" name="recoverAll" checked={form.all} onChange={(e) => setForm({ ...form, all: (e.target as HTMLInputElement).checked })} />
          {t.webhooks.recoverAll}
        </label>
        <ErrorNotice error={error} />
        <button type="submit" class="primary" disabled={running}>
          {t.webhooks.recoverStart}
        </button>
      </form>
      {task ? (
        <RecoverProgress
          key={task.id}
          subscriptionId={subscription.id}
          initial={task}
          onDone={() => {
            setRunning(false);
            onDone();
          }}
        />
      ) : null}
    </section>
  );
}
