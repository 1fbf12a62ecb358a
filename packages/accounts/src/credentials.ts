import { randomBytes } from "node:crypto";
import { encryptSecret, sha256Hex, type Db } from "@esign/db";

/** A credential (API client) as its customer's admins see it: never a secret. */
export interface CredentialRecord {
  id: number;
  clientId: string;
  apiKey: string;
  userId: number;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** A credential with its secrets, shown once: when it is made and when it is rotated. */
export interface IssuedCredential {
  id: number;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  apiSecret: string;
  createdAt: Date;
}

/** Why a rotation or revocation did nothing. */
export type CredentialRefusal = "not_found" | "revoked";

const token = (bytes: number) => randomBytes(bytes).toString("base64url");
const SELECT = { id: true, clientId: true, apiKey: true, userId: true, createdAt: true, revokedAt: true, lastUsedAt: true } as const;

export function listCredentials(db: Db, customerId: number): Promise<CredentialRecord[]> {
  return db.apiClient.findMany({ where: { customerId }, select: SELECT, orderBy: { id: "asc" } });
}

export async function issueCredential(db: Db, customerId: number, userId: number, encryptionKey: string): Promise<IssuedCredential> {
  const clientSecret = token(32);
  const apiSecret = token(32);
  const row = await db.apiClient.create({
    data: {
      customerId,
      userId,
      clientId: `cl_${token(12)}`,
      clientSecretHash: sha256Hex(clientSecret),
      apiKey: `ak_${token(12)}`,
      apiSecretEnc: encryptSecret(apiSecret, encryptionKey),
    },
  });
  return { id: row.id, clientId: row.clientId, clientSecret, apiKey: row.apiKey, apiSecret, createdAt: row.createdAt };
}

/**
 * New secrets for a credential (its client id and API key stay): the old ones stop working at once,
 * and so do the access and refresh tokens issued with them (tokensValidAfter; refresh tokens revoked).
 */
export async function rotateCredential(db: Db, customerId: number, id: number, encryptionKey: string): Promise<IssuedCredential | CredentialRefusal> {
  const clientSecret = token(32);
  const apiSecret = token(32);
  const now = new Date();
  return db.$transaction(async (tx) => {
    const row = await tx.apiClient.findFirst({ where: { id, customerId } });
    if (!row) return "not_found" as const;
    if (row.revokedAt) return "revoked" as const;
    await tx.apiClient.update({
      where: { id },
      data: { clientSecretHash: sha256Hex(clientSecret), apiSecretEnc: encryptSecret(apiSecret, encryptionKey), tokensValidAfter: now },
    });
    await tx.refreshToken.updateMany({ where: { apiClientId: id, revokedAt: null }, data: { revokedAt: now } });
    return { id: row.id, clientId: row.clientId, clientSecret, apiKey: row.apiKey, apiSecret, createdAt: row.createdAt };
  });
}

/** Revokes a credential for good, with every access and refresh token issued for it. Repeating it changes nothing. */
export async function revokeCredential(db: Db, customerId: number, id: number): Promise<CredentialRecord | "not_found"> {
  const now = new Date();
  return db.$transaction(async (tx) => {
    const row = await tx.apiClient.findFirst({ where: { id, customerId }, select: SELECT });
    if (!row) return "not_found" as const;
    if (row.revokedAt) return row;
    await tx.apiClient.update({ where: { id }, data: { revokedAt: now, tokensValidAfter: now } });
    await tx.refreshToken.updateMany({ where: { apiClientId: id, revokedAt: null }, data: { revokedAt: now } });
    return { ...row, revokedAt: now };
  });
}

/** What the gateway checks an access token against: revoked, or issued before the last rotation. */
export interface CredentialStanding {
  revoked: boolean;
  /** Unix milliseconds; tokens issued earlier are refused. */
  tokensValidAfterMs: number | null;
}

export async function credentialStanding(db: Db, clientId: string): Promise<CredentialStanding | null> {
  const row = await db.apiClient.findUnique({ where: { clientId }, select: { revokedAt: true, tokensValidAfter: true } });
  if (!row) return null;
  return { revoked: row.revokedAt !== null, tokensValidAfterMs: row.tokensValidAfter ? row.tokensValidAfter.getTime() : null };
}

/** Records a use, at most once a minute per credential (a write per WSSE request would be a write per request). */
export async function touchCredential(db: Db, clientId: string, now = new Date()): Promise<void> {
  await db.apiClient.updateMany({
    where: { clientId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
    data: { lastUsedAt: now },
  });
}
