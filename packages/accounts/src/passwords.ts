import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/*
 * Users' passwords (the web application's sign-in), hashed with node's own scrypt: a memory-hard
 * KDF from the standard library, no native addon to build. Each hash carries its parameters and salt
 * (`scrypt$N$r$p$<salt>$<hash>`, base64url), so raising the cost later leaves old hashes readable.
 */

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

// N = 2^15, r = 8: 32 MiB and some 50-100 ms per hash on one core (OWASP's scrypt floor is 2^17/8/1
// at 128 MiB; this is the cost the gateway can pay per sign-in on two cores).
const PARAMS = { N: 32_768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

const STORED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether `password` is the one `stored` was made from; a malformed stored value never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = STORED.exec(stored);
  if (!m) return false;
  const [, n, r, p, salt, hash] = m;
  const expected = Buffer.from(hash ?? "", "base64url");
  const key = await derive(password, Buffer.from(salt ?? "", "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// A hash of nothing anyone knows: an unknown email costs the same scrypt as a wrong password, so the
// time of the answer does not tell which emails have an account.
let decoy: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(randomBytes(24).toString("base64url"));
  await verifyPassword(password, await decoy);
  return false;
}

/** A password for `create-admin` when none is given: 24 random bytes, shown once. */
export const randomPassword = (): string => randomBytes(24).toString("base64url");
