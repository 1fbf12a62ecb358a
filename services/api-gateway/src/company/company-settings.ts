import type { Customer } from "@esign/db";
import { AppError } from "@esign/errors";
import type { AppConfig } from "@esign/config";
import { resolveLanguage } from "@esign/i18n";
import { SECURE_SIGNING_METHODS, type TLanguage, type TSecureSigningMethod } from "@esign/schema";
import type { GatewayContext } from "../context";
import type { CompanyProfileView, CompanyView } from "./company-schemas";

/**
 * The secure methods this platform can offer signers: every one with the simulator (development),
 * the methods OIDC_METHODS sets up with OpenID Connect.
 */
export function platformSigningMethods(config: Pick<AppConfig, "IDENTITY_PROVIDER" | "OIDC_METHODS">): TSecureSigningMethod[] {
  if (config.IDENTITY_PROVIDER === "simulator") return [...SECURE_SIGNING_METHODS];
  const configured = new Set(Object.keys(config.OIDC_METHODS ?? {}));
  return SECURE_SIGNING_METHODS.filter((m) => configured.has(m));
}

const eboksState = (c: Customer): CompanyView["channels"]["eboks"] => (c.eboksEnabled ? "granted" : c.eboksRequestedAt ? "requested" : "none");

export const presentCompany = (c: Customer): CompanyView => ({
  id: c.id,
  name: c.name,
  language: resolveLanguage([c.language], "en"),
  signingMethods: SECURE_SIGNING_METHODS.filter((m) => c.secureSigningMethods.includes(m)),
  recycleBinDays: c.recycleBinDays,
  channels: { email: true, eboks: eboksState(c) },
});

/** The part of the company a member may read (company-schemas.ts, ZCompanyProfile). */
export const presentProfile = (c: Customer): CompanyProfileView => {
  const { id, name, language, signingMethods } = presentCompany(c);
  return { id, name, language, signingMethods };
};

export const companyOf = (ctx: GatewayContext, customerId: number): Promise<Customer> => ctx.db.customer.findUniqueOrThrow({ where: { id: customerId } });

export interface CompanyChange {
  name?: string | undefined;
  language?: TLanguage | undefined;
  signingMethods?: TSecureSigningMethod[] | undefined;
  recycleBinDays?: number | undefined;
}

export async function changeCompany(ctx: GatewayContext, customerId: number, change: CompanyChange): Promise<Customer> {
  if (change.signingMethods) {
    const offered = new Set(platformSigningMethods(ctx.config));
    const refused = change.signingMethods.flatMap((m, i) =>
      offered.has(m) ? [] : [{ path: `signingMethods[${i}]`, code: "not_offered", message: `${m} is not offered by this platform` }],
    );
    if (refused.length > 0) throw new AppError("validation_failed", "Signing methods the platform does not offer", refused);
  }
  return ctx.db.customer.update({
    where: { id: customerId },
    data: {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.language !== undefined ? { language: change.language } : {}),
      ...(change.signingMethods !== undefined ? { secureSigningMethods: change.signingMethods } : {}),
      ...(change.recycleBinDays !== undefined ? { recycleBinDays: change.recycleBinDays } : {}),
    },
  });
}

/** An admin's request for the e-Boks channel: recorded once (a later request keeps the first time); granted stays granted. */
export async function requestEboks(ctx: GatewayContext, customerId: number): Promise<Customer> {
  await ctx.db.customer.updateMany({ where: { id: customerId, eboksEnabled: false, eboksRequestedAt: null }, data: { eboksRequestedAt: new Date() } });
  return companyOf(ctx, customerId);
}
