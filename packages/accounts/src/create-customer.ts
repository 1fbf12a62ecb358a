import { randomBytes } from "node:crypto";
import { encryptSecret, sha256Hex, type Db, type Tx } from "@esign/db";
import type { TLanguage, TSecureSigningMethod } from "@esign/schema";

export interface NewCustomer {
  name: string;
  eboksEnabled?: boolean;
  secureSigningMethods?: TSecureSigningMethod[];
  /** Language of the mails to the customer's developers and admins; unset is English. */
  language?: TLanguage | null;
  adminEmail?: string;
  /** Days a deleted case file stays in the recycle bin before it is purged (default 30). */
  recycleBinDays?: number;
}

/** Exactly what the admin CLI prints: the only moment the plain secrets are shown. */
export interface CustomerCredentials {
  customerId: number;
  userId: number;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  apiSecret: string;
}

const token = (bytes: number) => randomBytes(bytes).toString("base64url");

export async function createApiClient(
  tx: Tx | Db,
  customerId: number,
  userId: number,
  encryptionKey: string,
): Promise<Omit<CustomerCredentials, "customerId" | "userId">> {
  const clientId = `cl_${token(12)}`;
  const clientSecret = token(32);
  const apiKey = `ak_${token(12)}`;
  const apiSecret = token(32);
  await tx.apiClient.create({
    data: {
      customerId,
      userId,
      clientId,
      clientSecretHash: sha256Hex(clientSecret),
      apiKey,
      apiSecretEnc: encryptSecret(apiSecret, encryptionKey),
    },
  });
  return { clientId, clientSecret, apiKey, apiSecret };
}

export async function createUser(tx: Tx | Db, customerId: number, email: string, name: string, isAdmin: boolean, isOperator = false) {
  return tx.user.create({ data: { customerId, email, name, isAdmin, isOperator } });
}

/**
 * Makes a user a platform operator (the queue dashboard, across every customer) or takes it away.
 * Only the admin CLI and `pnpm start`'s own demo user call it: no API grants it.
 */
export async function setOperator(db: Db, userId: number, isOperator: boolean) {
  return db.user.update({ where: { id: userId }, data: { isOperator } });
}

/** A customer with its first (admin) user and that user's API client, in one transaction. */
export async function createCustomer(db: Db, input: NewCustomer, encryptionKey: string): Promise<CustomerCredentials> {
  return db.$transaction(async (tx) => {
    const customer = await tx.customer.create({
      data: {
        name: input.name,
        eboksEnabled: input.eboksEnabled ?? false,
        secureSigningMethods: input.secureSigningMethods ?? [],
        language: input.language ?? null,
        ...(input.recycleBinDays !== undefined ? { recycleBinDays: input.recycleBinDays } : {}),
      },
    });
    const email = input.adminEmail ?? `admin+${customer.id}@example.invalid`;
    const user = await createUser(tx, customer.id, email, `${input.name} admin`, true);
    const creds = await createApiClient(tx, customer.id, user.id, encryptionKey);
    return { customerId: customer.id, userId: user.id, ...creds };
  });
}
