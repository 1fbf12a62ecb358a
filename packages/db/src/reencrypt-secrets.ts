import { openPayloadIds, payloadIdsCurrent, sealPayloadIds } from "@esign/schema";
import type { Db } from "./create-prisma";
import type { Prisma } from "./generated/client";
import { decryptSecret, encryptSecret, isEncrypted, isEncryptedWith } from "./secrets";

/*
 * `pnpm cli secrets reencrypt` (and, for the national ids left in clear by the migration that
 * encrypted them, `pnpm migrate`): every value encrypted with ENCRYPTION_KEY (@esign/db encryptSecret)
 * is rewritten under the current key, so that after a rotation the previous keys can be dropped
 * (docs/operating.md, "Rotating ENCRYPTION_KEY"). Rows are read in id order, a batch at a time, and
 * each one that needs it is updated on its own: the command can be stopped and run again, and the
 * services keep running meanwhile (they read the old and the new form alike).
 */

const BATCH = 500;

/** How many stored values each column had rewritten. */
export type ReencryptCounts = Record<string, number>;

export interface ReencryptOptions {
  /** Only the signers' national ids still in clear (what `pnpm migrate` does after the migration). */
  onlyClearIds?: boolean;
}

/** Rows of one table in id order, a batch at a time. */
async function eachRow<R extends { id: number | string }>(read: (after: R["id"] | undefined) => Promise<R[]>, each: (row: R) => Promise<void>) {
  let after: R["id"] | undefined;
  for (;;) {
    const rows = await read(after);
    for (const row of rows) await each(row);
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]?.id;
  }
}

export async function reencryptSecrets(db: Db, keys: readonly string[], options: ReencryptOptions = {}): Promise<ReencryptCounts> {
  const current = keys[0];
  if (!current) throw new Error("no encryption key");
  const counts: ReencryptCounts = {};
  const count = (column: string) => {
    counts[column] = (counts[column] ?? 0) + 1;
  };
  /** The value under the current key, or null when it already is (a national id may still be clear). */
  const rewrap = (stored: string | null, clearAllowed: boolean): string | null => {
    if (stored === null || isEncryptedWith(stored, current)) return null;
    if (!isEncrypted(stored)) return clearAllowed ? encryptSecret(stored, keys) : null;
    return options.onlyClearIds ? null : encryptSecret(decryptSecret(stored, keys), keys);
  };
  const page = <W, Id extends number | string>(after: Id | undefined, where: W) => ({
    where: { ...where, ...(after === undefined ? {} : { id: { gt: after } }) },
    orderBy: { id: "asc" as const },
    take: BATCH,
  });

  /** Rewrites a row's columns that need it (`clear`: those that may still hold a national id in clear). */
  const rewrite = async <R extends object>(
    table: string,
    row: R,
    columns: readonly (keyof R & string)[],
    clear: readonly string[],
    update: (data: Record<string, string>) => Promise<unknown>,
  ) => {
    const changed: Record<string, string> = {};
    for (const column of columns) {
      const value = rewrap((row[column] as string | null) ?? null, clear.includes(column));
      if (value !== null) changed[column] = value;
    }
    if (Object.keys(changed).length === 0) return;
    await update(changed);
    for (const column of Object.keys(changed)) count(`${table}.${column}`);
  };

  // Signers: the CPR and social security numbers (issue 26) and the national id the eID returned.
  const clearIds: Prisma.SignerWhereInput = options.onlyClearIds
    ? {
        OR: (["cprEnc", "socialSecurityNumberEnc"] as const).map((c) => ({
          AND: [{ [c]: { not: null } }, { NOT: { [c]: { startsWith: "v1." } } }, { NOT: { [c]: { startsWith: "v2." } } }],
        })),
      }
    : {};
  await eachRow(
    (after: number | undefined) =>
      db.signer.findMany({ ...page(after, clearIds), select: { id: true, cprEnc: true, socialSecurityNumberEnc: true, identityNationalIdEnc: true } }),
    (s) =>
      rewrite("Signer", s, ["cprEnc", "socialSecurityNumberEnc", "identityNationalIdEnc"], ["cprEnc", "socialSecurityNumberEnc"], (data) =>
        db.signer.update({ where: { id: s.id }, data }),
      ),
  );
  if (options.onlyClearIds) return counts;

  await eachRow(
    (after: number | undefined) => db.signingLink.findMany({ ...page(after, {}), select: { id: true, tokenEnc: true } }),
    (r) => rewrite("SigningLink", r, ["tokenEnc"], [], (data) => db.signingLink.update({ where: { id: r.id }, data })),
  );
  await eachRow(
    (after: number | undefined) => db.apiClient.findMany({ ...page(after, {}), select: { id: true, apiSecretEnc: true } }),
    (r) => rewrite("ApiClient", r, ["apiSecretEnc"], [], (data) => db.apiClient.update({ where: { id: r.id }, data })),
  );
  await eachRow(
    (after: number | undefined) => db.userInvitation.findMany({ ...page(after, {}), select: { id: true, tokenEnc: true } }),
    (r) => rewrite("UserInvitation", r, ["tokenEnc"], [], (data) => db.userInvitation.update({ where: { id: r.id }, data })),
  );
  await eachRow(
    (after: string | undefined) => db.webhookSubscription.findMany({ ...page(after, {}), select: { id: true, secretEnc: true, previousSecretEnc: true } }),
    (r) => rewrite("WebhookSubscription", r, ["secretEnc", "previousSecretEnc"], [], (data) => db.webhookSubscription.update({ where: { id: r.id }, data })),
  );
  // Creation jobs (kept 14 days): the payload's national ids, and the signing links of the result.
  await eachRow(
    (after: string | undefined) => db.creationJob.findMany({ ...page(after, {}), select: { id: true, payload: true, result: true } }),
    async (j) => {
      const data: Prisma.CreationJobUpdateInput = {};
      if (!payloadIdsCurrent(j.payload, (enc) => isEncryptedWith(enc, current))) {
        const opened = openPayloadIds(j.payload, (enc) => decryptSecret(enc, keys));
        data.payload = sealPayloadIds(opened as Record<string, unknown>, (plain) => encryptSecret(plain, keys)) as Prisma.InputJsonObject;
        count("CreationJob.payload");
      }
      const result = j.result as { signingLinksEnc?: unknown } | null;
      if (result && typeof result.signingLinksEnc === "string") {
        const signingLinksEnc = rewrap(result.signingLinksEnc, false);
        if (signingLinksEnc) {
          data.result = { ...result, signingLinksEnc } as Prisma.InputJsonObject;
          count("CreationJob.result");
        }
      }
      if (Object.keys(data).length > 0) await db.creationJob.update({ where: { id: j.id }, data });
    },
  );
  return counts;
}
