import type { Event } from "@esign/db";
import { splitEventType, ZEventType } from "@esign/schema";

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * `YYYY-MM-DD HH:MM:SS.ffffff` in UTC, the PHP DateTime shape of the public API. The stored time has
 * millisecond precision once read through Prisma, so the last three digits are always 0; what
 * matters is that the same row always gives the same string.
 */
export function formatEventDate(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError("formatEventDate: invalid date");
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.` +
    `${pad(date.getUTCMilliseconds(), 3)}000`
  );
}

/**
 * The exact bytes POSTed for an event. Built only from the stored row, so every retry and every
 * redelivery sends the same body (receivers may hash or compare it). `topic` and `eventType` are
 * the parts of the stored type (`sign.casefile.completed` -> `casefile`, `completed`), as the
 * webhook docs of Penneo's SDKs show the body; the whole type goes in `X-Event-Type`.
 */
export function buildEventBody(event: Pick<Event, "eventType" | "occurredAt" | "payload">): string {
  const { topic, name } = splitEventType(ZEventType.parse(event.eventType));
  return JSON.stringify({
    topic,
    eventType: name,
    eventTime: { date: formatEventDate(event.occurredAt), timezone_type: 3, timezone: "UTC" },
    payload: event.payload,
  });
}
