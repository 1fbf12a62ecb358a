import { createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";

/**
 * Small HMAC-sealed values (login state, simulator codes, identity cookies). They carry their own
 * expiry, so any gateway replica can check them without shared memory; the content is readable by
 * the holder (base64url JSON), so nothing secret goes inside.
 */

/** One key per purpose, derived from the master key: a value sealed for one purpose never opens as another. */
export function deriveKey(masterKeyHex: string, purpose: string): Buffer {
  return createHmac("sha256", Buffer.from(masterKeyHex, "hex")).update(`esign/${purpose}/v1`).digest();
}

export function seal(payload: { exp: number } & Record<string, unknown>, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

const SEALED = /^([A-Za-z0-9_-]{1,4096})\.([A-Za-z0-9_-]{43})$/;

/** The payload when the MAC matches, the shape parses and `exp` (unix seconds) is still ahead; else null. */
export function unseal<S extends z.ZodType<{ exp: number }>>(value: unknown, key: Buffer, schema: S, now = Date.now()): z.output<S> | null {
  if (typeof value !== "string") return null;
  const m = SEALED.exec(value);
  if (!m?.[1] || !m[2]) return null;
  const expected = createHmac("sha256", key).update(m[1]).digest();
  const given = Buffer.from(m[2], "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(m[1], "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success || parsed.data.exp * 1000 <= now) return null;
  return parsed.data;
}

export const unixNow = (now = Date.now()) => Math.floor(now / 1000);
