import { MailThrottle, MailThrottled } from "../src/mail-throttle";
import { useTestRedis } from "./redis-fixture";

/*
 * MAILS_PER_CUSTOMER_PER_MINUTE (spec limits): `take` counts a message against the customer's minute;
 * `hold` only looks, before a message's transaction, so that a request held back costs one Redis read
 * at each retry instead of a lock, the signer's read and a rollback. Held-back messages stand in a
 * line that leaves at the limit's pace (one place per 60 s / limit): a backlog never wakes at once.
 */

const { redis: connection, prefix } = useTestRedis("throttle");

it("hold lets a customer under its minute through without taking from it, and holds it back once take used the minute up", async () => {
  const throttle = new MailThrottle(connection(), prefix, 2);
  await throttle.hold(7);
  await throttle.hold(7);
  await throttle.hold(7);
  // Three holds took nothing: both messages of the minute are still there.
  await throttle.take(7);
  await throttle.take(7);
  const held = await throttle.hold(7).catch((err: unknown) => err);
  expect(held).toBeInstanceOf(MailThrottled);
  expect((held as MailThrottled).retryAt).toBeGreaterThanOrEqual(Date.now() + 900);
  await expect(throttle.take(7)).rejects.toBeInstanceOf(MailThrottled);
  // Another customer's minute is its own.
  await throttle.hold(8);
});

it("never holds back with the limit off (0)", async () => {
  const throttle = new MailThrottle(connection(), `${prefix}-off`, 0);
  for (let i = 0; i < 5; i++) await throttle.take(9);
  await throttle.hold(9);
});

const WINDOW_MS = 60_000;

it("gives the messages beyond the minute places in a line that leaves at the limit's pace", async () => {
  const throttle = new MailThrottle(connection(), `${prefix}-line`, 2);
  // An empty minute: two go now, the third waits for the window a send starts (a minute from now).
  expect((await throttle.placesFor(11, 2)).every((d) => d === 0)).toBe(true);
  await throttle.take(11);
  await throttle.take(11);
  // The minute is used up: five new messages take the line's places 0..4, spaced 30 s (60 s / 2),
  // from the window's end on; the third one is due a whole window after the first.
  const places = await throttle.placesFor(11, 5);
  expect(places[0]).toBeGreaterThan(WINDOW_MS - 5_000);
  expect(places[0]).toBeLessThanOrEqual(WINDOW_MS);
  const gaps = places.slice(1).map((d, i) => d - places[i]!);
  for (const gap of gaps) expect(Math.abs(gap - WINDOW_MS / 2)).toBeLessThanOrEqual(50);
  // A held-back message whose turn came (hold) takes the next place, the sixth.
  const held = await throttle.hold(11).catch((err: unknown) => err);
  expect(held).toBeInstanceOf(MailThrottled);
  const sixth = (held as MailThrottled).retryAt - Date.now();
  expect(Math.abs(sixth - (places[4]! + WINDOW_MS / 2))).toBeLessThanOrEqual(1_000);
  // Another customer's minute and line are its own.
  expect(await throttle.placesFor(12, 2)).toEqual([0, 0]);
});

it("puts new messages behind an existing line even when the minute has room, but lets a message whose turn came go", async () => {
  const throttle = new MailThrottle(connection(), `${prefix}-behind`, 3);
  for (let i = 0; i < 3; i++) await throttle.take(21);
  const line = await throttle.placesFor(21, 2);
  expect(line.every((d) => d > 0)).toBe(true);
  // The minute ends (its counter gone) while the line still waits: new messages join its back ...
  await connection().del(`${prefix}-behind:rl:mails-customer:{21}`);
  const [joined] = await throttle.placesFor(21, 1);
  expect(joined).toBeGreaterThan(line[1]!);
  // ... while a message at the head of the line (hold) goes as soon as the minute has room.
  await throttle.hold(21);
  await throttle.take(21);
});

it("gives a message asked for again by its id the place it already has, and new messages the places after it", async () => {
  const throttle = new MailThrottle(connection(), `${prefix}-ids`, 2);
  const lineKey = `${prefix}-ids:rl:mails-line:{31}`;
  for (let i = 0; i < 2; i++) await throttle.take(31);
  const first = await throttle.placesFor(31, 3, true, ["a", "b", "c"]);
  expect(first.every((d) => d > 0)).toBe(true);
  expect(await connection().hget(lineKey, "count")).toBe("3");
  // The same three again (a writer and the relay publishing one batch twice): the same places, the
  // line no longer. Within a second: the answers are offsets from Redis' clock at each call.
  const again = await throttle.placesFor(31, 3, true, ["a", "b", "c"]);
  for (const [i, d] of again.entries()) expect(Math.abs(d - first[i]!)).toBeLessThanOrEqual(1_000);
  expect(await connection().hget(lineKey, "count")).toBe("3");
  // Known and new mixed: "b" keeps its place, "d" and "e" take the fourth and fifth.
  const mixed = await throttle.placesFor(31, 3, true, ["d", "b", "e"]);
  expect(Math.abs(mixed[1]! - first[1]!)).toBeLessThanOrEqual(1_000);
  expect(mixed[0]!).toBeGreaterThan(first[2]! + WINDOW_MS / 2 - 1_000);
  expect(mixed[2]! - mixed[0]!).toBeGreaterThan(WINDOW_MS / 2 - 1_000);
  expect(await connection().hget(lineKey, "count")).toBe("5");
  // Without ids every message is a new one (a due message held back again takes a new place).
  await throttle.placesFor(31, 2);
  expect(await connection().hget(lineKey, "count")).toBe("7");
  await expect(throttle.placesFor(31, 2, true, ["only-one"])).rejects.toThrow(/1 ids for 2 messages/);
});
