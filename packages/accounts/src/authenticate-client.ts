import { timingSafeEqual } from "node:crypto";
import { decryptSecret, sha256Hex, type Keyring, type Db } from "@esign/db";

export interface AuthenticatedClient {
  clientId: string;
  userId: number;
  customerId: number;
}

function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** client_credentials: the secret is compared by hash, in constant time. */
export async function authenticateClient(db: Db, clientId: string, clientSecret: string): Promise<AuthenticatedClient | null> {
  const client = await db.apiClient.findUnique({ where: { clientId } });
  if (!client || client.revokedAt) return null;
  if (!equalHex(client.clientSecretHash, sha256Hex(clientSecret))) return null;
  return { clientId: client.clientId, userId: client.userId, customerId: client.customerId };
}

export interface ApiKeyClient extends AuthenticatedClient {
  apiKey: string;
  /** The plain API secret, so the caller can recompute a digest. */
  apiSecret: string;
}

/** WSSE: the client of an API key (the WSSE Username), with its plain API secret. */
export async function resolveApiKey(db: Db, apiKey: string, encryptionKey: Keyring): Promise<ApiKeyClient | null> {
  const client = await db.apiClient.findUnique({ where: { apiKey } });
  if (!client || client.revokedAt) return null;
  return {
    clientId: client.clientId,
    userId: client.userId,
    customerId: client.customerId,
    apiKey: client.apiKey,
    apiSecret: decryptSecret(client.apiSecretEnc, encryptionKey),
  };
}

/** api_keys: returns the client and its plain API secret so the caller can recompute the digest. */
export async function resolveApiKeyClient(db: Db, clientId: string, apiKey: string, encryptionKey: Keyring): Promise<ApiKeyClient | null> {
  const client = await resolveApiKey(db, apiKey, encryptionKey);
  return client && client.clientId === clientId ? client : null;
}
