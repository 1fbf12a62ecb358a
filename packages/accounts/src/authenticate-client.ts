import { timingSafeEqual } from "node:crypto";
import { decryptSecret, sha256Hex, type Db } from "@esign/db";

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

/** api_keys: returns the client and its plain API secret so the caller can recompute the digest. */
export async function resolveApiKeyClient(
  db: Db,
  clientId: string,
  apiKey: string,
  encryptionKey: string,
): Promise<(AuthenticatedClient & { apiSecret: string }) | null> {
  const client = await db.apiClient.findUnique({ where: { clientId } });
  if (!client || client.revokedAt || client.apiKey !== apiKey) return null;
  return {
    clientId: client.clientId,
    userId: client.userId,
    customerId: client.customerId,
    apiSecret: decryptSecret(client.apiSecretEnc, encryptionKey),
  };
}
