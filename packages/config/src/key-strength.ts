/**
 * Production refuses keys a person typed instead of drawing (issue 26, item 10): a JWT_SECRET of one
 * repeated letter passes a length check and is found by the first guess. A drawn key (`openssl rand
 * -hex 32`, 64 hex characters; or base64 of 32 bytes) has almost every possible character and no short
 * period, so the two tests below never refuse one: P(fewer than 10 of 16 hex digits in 64 draws) < 1e-9.
 */

/** Fewest distinct characters a secret must hold. */
const MIN_DISTINCT = 10;
/** A secret that is a short pattern repeated ("abcabc…", "7e57…") is as weak as the pattern. */
const MAX_WEAK_PERIOD = 16;

/** Why `secret` looks typed rather than drawn, or undefined when it looks drawn. */
export function weakKeyReason(secret: string): string | undefined {
  const value = secret.toLowerCase();
  const distinct = new Set(value).size;
  if (distinct < MIN_DISTINCT) return `it has only ${distinct} distinct characters (a random key has many more)`;
  for (let period = 1; period <= MAX_WEAK_PERIOD && period < value.length; period++) {
    if (isRepetition(value, period)) return `it repeats a pattern of ${period} characters`;
  }
  if (isRun(value)) return "it is a run of consecutive characters";
  return undefined;
}

function isRepetition(value: string, period: number): boolean {
  for (let i = period; i < value.length; i++) if (value[i] !== value[i - period]) return false;
  return true;
}

// "0123456789abcdef…" or "abcdefghijk…": distinct and aperiodic within 16, still no secret.
function isRun(value: string): boolean {
  let steps = 0;
  for (let i = 1; i < value.length; i++) {
    const step = value.charCodeAt(i) - value.charCodeAt(i - 1);
    if (step === 1 || step === -1) steps++;
  }
  return steps >= (value.length - 1) * 0.75;
}

const LOOPBACK_HOSTS = /^(localhost|\[::1\]|127(\.\d{1,3}){3})$/;

/**
 * The public origin production may use: https, or a loopback origin (reachable from this machine only:
 * a test, or a proxy on the same host that is not the public origin anyway). Otherwise identity cookies
 * lack `Secure` and signing links would travel in clear, or read `http://0.0.0.0:3000`.
 */
export function publicUrlProblem(publicBaseUrl: string | undefined, host: string, port: number): string | undefined {
  const url = new URL(publicBaseUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`);
  if (url.protocol === "https:" || LOOPBACK_HOSTS.test(url.hostname)) return undefined;
  return publicBaseUrl === undefined
    ? `PUBLIC_BASE_URL: required in production when HOST is not loopback ("${host}"): the https origin signers and integrators reach, e.g. https://esign.example.com`
    : `PUBLIC_BASE_URL: must be https in production (got ${url.protocol.replace(":", "")}://${url.host}); signing links and identity cookies travel over it`;
}
