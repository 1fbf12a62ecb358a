// Admin CLI for platform teams. Every verb prints ONE JSON object on stdout (errors go to stderr, exit 1).
//   pnpm cli customers create --name N [--eboks] [--secure-methods a,b] [--language L] [--admin-email E] [--recycle-bin-days D]
//   pnpm cli customers update --id N [--eboks | --no-eboks] [--secure-methods a,b] [--language L | --language none] [--recycle-bin-days D]
//   pnpm cli users create --customer-id N --email E --name N [--admin] [--operator]
//   pnpm cli users create-admin --customer N --email E --name NAME   (web-application sign-in; ESIGN_ADMIN_PASSWORD or a printed one)
//   pnpm cli customers eboks grant|revoke --customer N             (the e-Boks channel an admin requested)
//   pnpm cli operators grant|revoke --user-id N      (platform operators: the queue dashboard)
//   pnpm cli clients create --user-id N
//   pnpm cli credentials list --customer-id N | rotate --id N | revoke --id N   (revocation reaches tokens within seconds)
//   pnpm cli webhooks listen --events all [--forward-to URL]   (development: see scripts/cli-listen.ts)
//   pnpm cli secrets reencrypt                                (every encrypted value under ENCRYPTION_KEY; docs/operating.md)
//   pnpm cli verify FILE                                      (a PDF: sealed by this platform? changed since?)
import { parseArgs } from "node:util";
import { z } from "zod";
import {
  createAdminUser,
  createApiClient,
  createCustomer,
  createUser,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  randomPassword,
  listCredentials,
  revokeCredential,
  rotateCredential,
  setOperator,
} from "@esign/accounts";
import { loadConfig } from "@esign/config";
import { createPrisma, keyId, reencryptSecrets } from "@esign/db";
import { ZLanguage, ZSecureSigningMethod } from "@esign/schema";
import { verifyFile } from "./cli-verify";

const ZMethods = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((m) => m.trim())
      .filter(Boolean),
  )
  .pipe(z.array(ZSecureSigningMethod));

/** Days a deleted case file stays restorable in the recycle bin before it is purged (0: at the next hourly purge). */
const ZRecycleBinDays = z
  .string()
  .regex(/^\d{1,4}$/, "--recycle-bin-days must be a whole number of days")
  .transform(Number)
  .pipe(z.number().max(3650, "--recycle-bin-days must be at most 3650"));

/** The language of the customer's own mails (a disabled webhook subscription); `none` clears it (English). */
const ZCustomerLanguage = z.union([z.literal("none").transform(() => null), ZLanguage], {
  error: () => "--language must be one of en, da, sv, nl, fr, fi, no, de, none",
});

const USAGE = `usage:
  pnpm cli customers create --name NAME [--eboks] [--secure-methods a,b] [--language en|da|sv|nl|fr|fi|no|de] [--admin-email EMAIL] [--recycle-bin-days D]
  pnpm cli customers update --id ID [--eboks|--no-eboks] [--secure-methods a,b] [--language L|--language none] [--recycle-bin-days D]
  pnpm cli users create --customer-id ID --email EMAIL --name NAME [--admin] [--operator]
  pnpm cli users create-admin --customer ID --email EMAIL --name NAME   (password: ESIGN_ADMIN_PASSWORD, else printed once)
  pnpm cli customers eboks grant|revoke --customer ID
  pnpm cli operators grant --user-id ID
  pnpm cli operators revoke --user-id ID
  pnpm cli clients create --user-id ID
  pnpm cli credentials list --customer-id ID
  pnpm cli credentials rotate --id ID       (new secrets, printed once; tokens issued before stop working)
  pnpm cli credentials revoke --id ID       (the credential and every token issued for it)
  pnpm cli webhooks listen --events all [--forward-to URL] [--base-url URL --client-id ID --client-secret S]
  pnpm cli secrets reencrypt                (everything encrypted, and national ids still clear, under ENCRYPTION_KEY)
  pnpm cli verify FILE`;

async function main(argv: string[]): Promise<unknown> {
  const [noun, verb, ...rest] = argv;
  if (noun === "secrets") {
    if (verb !== "reencrypt" || rest.length > 0) throw new Error("usage: pnpm cli secrets reencrypt");
    const config = loadConfig();
    const db = createPrisma(config.DATABASE_URL, 2);
    try {
      return { reencrypted: await reencryptSecrets(db, config.ENCRYPTION_KEYRING), keyId: keyId(config.ENCRYPTION_KEY) };
    } finally {
      await db.$disconnect();
    }
  }
  if (noun === "verify") {
    if (!verb || rest.length > 0) throw new Error("usage: pnpm cli verify FILE");
    const db = createPrisma(loadConfig().DATABASE_URL, 2);
    try {
      return await verifyFile(db, verb);
    } finally {
      await db.$disconnect();
    }
  }
  // `customers eboks grant|revoke --customer N`: the action is a word before the flags.
  const action = noun === "customers" && verb === "eboks" ? rest[0] : undefined;
  const { values } = parseArgs({
    args: action === undefined ? rest : rest.slice(1),
    options: {
      name: { type: "string" },
      id: { type: "string" },
      eboks: { type: "boolean" },
      "no-eboks": { type: "boolean" },
      "secure-methods": { type: "string" },
      language: { type: "string" },
      "admin-email": { type: "string" },
      "recycle-bin-days": { type: "string" },
      "customer-id": { type: "string" },
      customer: { type: "string" },
      "user-id": { type: "string" },
      email: { type: "string" },
      admin: { type: "boolean" },
      operator: { type: "boolean" },
    },
    strict: true,
  });
  const config = loadConfig();
  const db = createPrisma(config.DATABASE_URL, 2);
  const int = (v: string | undefined, flag: string) =>
    z.coerce
      .number()
      .int()
      .positive()
      .parse(v, { error: () => `${flag} must be a positive integer` });
  try {
    if (noun === "customers" && verb === "create") {
      if (!values.name) throw new Error("--name is required");
      return await createCustomer(
        db,
        {
          name: values.name,
          eboksEnabled: values.eboks ?? false,
          secureSigningMethods: values["secure-methods"] ? ZMethods.parse(values["secure-methods"]) : [],
          language: values.language === undefined ? null : ZCustomerLanguage.parse(values.language),
          adminEmail: values["admin-email"],
          ...(values["recycle-bin-days"] !== undefined ? { recycleBinDays: ZRecycleBinDays.parse(values["recycle-bin-days"]) } : {}),
        },
        config.ENCRYPTION_KEY,
      );
    }
    if (noun === "customers" && verb === "update") {
      const id = int(values.id, "--id");
      const c = await db.customer.update({
        where: { id },
        data: {
          ...(values.eboks ? { eboksEnabled: true } : values["no-eboks"] ? { eboksEnabled: false } : {}),
          ...(values["secure-methods"] !== undefined ? { secureSigningMethods: ZMethods.parse(values["secure-methods"]) } : {}),
          ...(values.language !== undefined ? { language: ZCustomerLanguage.parse(values.language) } : {}),
          ...(values["recycle-bin-days"] !== undefined ? { recycleBinDays: ZRecycleBinDays.parse(values["recycle-bin-days"]) } : {}),
        },
      });
      return {
        customerId: c.id,
        name: c.name,
        eboksEnabled: c.eboksEnabled,
        secureSigningMethods: c.secureSigningMethods,
        language: c.language,
        recycleBinDays: c.recycleBinDays,
      };
    }
    if (noun === "users" && verb === "create") {
      if (!values.email || !values.name) throw new Error("--email and --name are required");
      const u = await createUser(db, int(values["customer-id"], "--customer-id"), values.email, values.name, values.admin ?? false, values.operator ?? false);
      return { customerId: u.customerId, userId: u.id, email: u.email, isAdmin: u.isAdmin, isOperator: u.isOperator };
    }
    if (noun === "users" && verb === "create-admin") {
      if (!values.email || !values.name) throw new Error("--email and --name are required");
      const given = process.env.ESIGN_ADMIN_PASSWORD;
      const password = given ?? randomPassword();
      if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
        throw new Error(`ESIGN_ADMIN_PASSWORD must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
      }
      const customerId = int(values.customer, "--customer");
      const { userId, created } = await createAdminUser(db, { customerId, email: values.email, name: values.name, password });
      // The generated password is shown here once and stored nowhere in the clear.
      return { customerId, userId, email: values.email, created, ...(given === undefined ? { password } : {}) };
    }
    if (noun === "customers" && verb === "eboks") {
      if (action !== "grant" && action !== "revoke") throw new Error("usage: pnpm cli customers eboks grant|revoke --customer ID");
      const c = await db.customer.update({
        where: { id: int(values.customer, "--customer") },
        data: { eboksEnabled: action === "grant", eboksRequestedAt: null },
      });
      return { customerId: c.id, eboks: c.eboksEnabled ? "granted" : "none" };
    }
    if (noun === "operators" && (verb === "grant" || verb === "revoke")) {
      const u = await setOperator(db, int(values["user-id"], "--user-id"), verb === "grant");
      return { customerId: u.customerId, userId: u.id, email: u.email, isOperator: u.isOperator };
    }
    if (noun === "clients" && verb === "create") {
      const user = await db.user.findUniqueOrThrow({ where: { id: int(values["user-id"], "--user-id") } });
      return { customerId: user.customerId, userId: user.id, ...(await createApiClient(db, user.customerId, user.id, config.ENCRYPTION_KEY)) };
    }
    if (noun === "credentials" && verb === "list") return await listCredentials(db, int(values["customer-id"], "--customer-id"));
    if (noun === "credentials" && (verb === "rotate" || verb === "revoke")) {
      const id = int(values.id, "--id");
      const found = await db.apiClient.findUnique({ where: { id }, select: { customerId: true } });
      if (!found) throw new Error(`no credential ${id}`);
      const outcome =
        verb === "rotate" ? await rotateCredential(db, found.customerId, id, config.ENCRYPTION_KEY) : await revokeCredential(db, found.customerId, id);
      if (outcome === "revoked") throw new Error(`credential ${id} is revoked; make a new one (pnpm cli clients create)`);
      if (outcome === "not_found") throw new Error(`no credential ${id}`);
      return { customerId: found.customerId, ...outcome };
    }
    throw new Error(USAGE);
  } finally {
    await db.$disconnect();
  }
}

const argv = process.argv.slice(2);
if (argv[0] === "webhooks" && argv[1] === "listen") {
  // A long-running verb with its own output: it prints a line per event instead of one JSON object.
  void import("./cli-listen");
} else {
  void main(argv).then(
    (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof z.ZodError ? err.issues.map((i) => i.message).join("; ") : (err as Error).message}\n`);
      process.exit(1);
    },
  );
}
