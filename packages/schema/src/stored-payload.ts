import type { TCaseFile } from "./casefile-create/schemas";

/*
 * The create payload as CreationJob.payload keeps it (for the worker, and for 14 days after): the
 * signers' national ids (cpr, socialSecurityNumberPlain) are replaced by their encrypted form
 * (cprEnc, socialSecurityNumberEnc, @esign/db encryptSecret), so the job row, like the Signer row,
 * never holds them in clear (issue 26). The worker opens them again before it parses the payload.
 * The crypto is the caller's (this package has no keys).
 */

/** The payload field in clear and the key its encrypted form is kept under. */
const SEALED_FIELDS = [
  ["cpr", "cprEnc"],
  ["socialSecurityNumberPlain", "socialSecurityNumberEnc"],
] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The payload with each signer's national ids encrypted: what the gateway stores (the validated
 * payload), and what `secrets reencrypt` makes of a stored one that still has them in clear.
 */
export function sealPayloadIds(payload: TCaseFile | Record<string, unknown>, encrypt: (plain: string) => string): Record<string, unknown> {
  const signers: unknown[] = Array.isArray(payload.signers) ? payload.signers : [];
  return {
    ...payload,
    signers: signers.map((signer) => {
      if (!isObject(signer)) return signer;
      const sealed: Record<string, unknown> = { ...signer };
      for (const [clear, enc] of SEALED_FIELDS) {
        const value = sealed[clear];
        delete sealed[clear];
        // An empty socialSecurityNumberPlain is "none": nothing to keep.
        if (typeof value === "string" && value !== "") sealed[enc] = encrypt(value);
        // Already sealed (a stored payload): kept as it is unless the caller re-encrypts it.
      }
      return sealed;
    }),
  };
}

/**
 * The stored payload as the create sent it (national ids back in clear), for the worker's parse.
 * A payload stored before this sealing (clear values) comes back as it is.
 */
export function openPayloadIds(stored: unknown, decrypt: (enc: string) => string): unknown {
  if (!isObject(stored) || !Array.isArray(stored.signers)) return stored;
  return {
    ...stored,
    signers: stored.signers.map((signer: unknown) => {
      if (!isObject(signer)) return signer;
      const opened: Record<string, unknown> = { ...signer };
      for (const [clear, enc] of SEALED_FIELDS) {
        const value = opened[enc];
        if (value === undefined) continue;
        delete opened[enc];
        if (typeof value === "string") opened[clear] = decrypt(value);
      }
      return opened;
    }),
  };
}

/**
 * Whether a stored payload needs no work from `secrets reencrypt`: no national id in clear (a payload
 * stored before the sealing) and every encrypted one under the current key (`isCurrent`).
 */
export function payloadIdsCurrent(stored: unknown, isCurrent: (enc: string) => boolean): boolean {
  if (!isObject(stored) || !Array.isArray(stored.signers)) return true;
  return stored.signers.every(
    (s: unknown) =>
      !isObject(s) ||
      SEALED_FIELDS.every(([clear, enc]) => !(typeof s[clear] === "string" && s[clear] !== "") && (typeof s[enc] !== "string" || isCurrent(s[enc]))),
  );
}
