import { chmodSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { createCustomer, setOperator, type CustomerCredentials } from "@esign/accounts";
import { createPrisma, sha256Hex, type Db } from "@esign/db";
import { warn } from "./output";

const ZSavedCredentials = z.object({
  customerId: z.number().int(),
  userId: z.number().int(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  apiKey: z.string().min(1),
  apiSecret: z.string().min(1),
});

export interface DemoCustomer {
  credentials: CustomerCredentials;
  created: boolean;
}

/** The saved file, or nothing when it is missing or unreadable (then a fresh customer replaces it). */
function readSaved(file: string): CustomerCredentials | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    return ZSavedCredentials.parse(JSON.parse(text));
  } catch {
    warn(`${file} is not valid demo credentials; creating a new demo customer`);
    return undefined;
  }
}

/** The file survives database resets, so only trust it when the client still logs in with that secret. */
async function stillValid(db: Db, saved: CustomerCredentials): Promise<boolean> {
  const client = await db.apiClient.findUnique({ where: { clientId: saved.clientId } });
  return client !== null && client.revokedAt === null && client.clientSecretHash === sha256Hex(saved.clientSecret);
}

function save(file: string, credentials: CustomerCredentials): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // `mode` only applies when the file is created; an older file may have been readable by others.
  chmodSync(file, 0o600);
}

/**
 * The customer a developer tries the API with: the same createCustomer the admin CLI runs, with
 * e-Boks and MitID on so that every part of the create payload can be exercised.
 */
export async function ensureDemoCustomer(databaseUrl: string, encryptionKey: string, file: string): Promise<DemoCustomer> {
  const db = createPrisma(databaseUrl, 2);
  try {
    const saved = readSaved(file);
    if (saved && (await stillValid(db, saved))) return { credentials: saved, created: false };
    const credentials = await createCustomer(db, { name: "Demo customer", eboksEnabled: true, secureSigningMethods: ["mitid.dk"] }, encryptionKey);
    // The developer running `pnpm start` is this machine's platform operator: the demo user may open
    // the queue dashboard. No other customer's users can (pnpm cli operators grant makes more).
    await setOperator(db, credentials.userId, true);
    save(file, credentials);
    return { credentials, created: true };
  } finally {
    await db.$disconnect();
  }
}
