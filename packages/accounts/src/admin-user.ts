import type { Db } from "@esign/db";
import { hashPassword } from "./passwords";

export interface NewAdminUser {
  customerId: number;
  email: string;
  name: string;
  password: string;
}

/**
 * The first administrator of a customer (`pnpm cli users create-admin`): a user who signs in to the
 * web application with `password`. An existing user of the customer with the email (ignoring case)
 * is made an admin and given the password instead of a second one.
 */
export async function createAdminUser(db: Db, input: NewAdminUser): Promise<{ userId: number; created: boolean }> {
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    const existing = await tx.user.findFirst({
      where: { customerId: input.customerId, email: { equals: input.email, mode: "insensitive" } },
      orderBy: { id: "asc" },
    });
    if (existing) {
      await tx.user.update({ where: { id: existing.id }, data: { isAdmin: true, passwordHash, disabledAt: null, name: input.name } });
      return { userId: existing.id, created: false };
    }
    const user = await tx.user.create({ data: { customerId: input.customerId, email: input.email, name: input.name, isAdmin: true, passwordHash } });
    return { userId: user.id, created: true };
  });
}
