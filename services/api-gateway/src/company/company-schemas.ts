import { z } from "zod";
import { LANGUAGES, SECURE_SIGNING_METHODS } from "@esign/schema";
import { component } from "../contract/components";

/*
 * The customer's company settings as the web application's Configure, Company page shows them: the
 * default language of its mails, the secure signing methods enabled (within what the platform's
 * identity provider offers), the recycle-bin period, and the communication channels (email always;
 * e-Boks requested by an admin, granted by the platform operator with the CLI).
 */

export const ZEboksState = z.enum(["none", "requested", "granted"]);

export const ZCompany = component(
  "Company",
  z
    .object({
      id: z.int(),
      name: z.string(),
      language: z.enum(LANGUAGES).describe("The customer's mails (invitations, a disabled webhook subscription); English unless set"),
      signingMethods: z.array(z.enum(SECURE_SIGNING_METHODS)).describe("The secure signing methods enabled for the customer's signers"),
      recycleBinDays: z.int().describe("Days a deleted case file stays restorable before it is purged"),
      channels: z.object({ email: z.literal(true), eboks: ZEboksState }),
    })
    .describe("The customer's company settings"),
);
export type CompanyView = z.input<typeof ZCompany>;

/**
 * What every user of the customer may read (members too): what the create form needs, the company's
 * name, its default language and the secure signing methods its signers may be offered. The rest
 * (channels, recycle-bin period) is configuration, for administrators only.
 */
export const ZCompanyProfile = component(
  "CompanyProfile",
  z
    .object({
      id: z.int(),
      name: z.string(),
      language: ZCompany.shape.language,
      signingMethods: ZCompany.shape.signingMethods,
    })
    .describe("The company as every user of the customer sees it"),
);
export type CompanyProfileView = z.input<typeof ZCompanyProfile>;

export const ZCompanyChange = component(
  "CompanyChange",
  z
    .object({
      name: z.string().trim().min(1).max(200).optional(),
      language: z.enum(LANGUAGES).optional(),
      signingMethods: z
        .array(z.enum(SECURE_SIGNING_METHODS))
        .max(SECURE_SIGNING_METHODS.length)
        .refine((m) => new Set(m).size === m.length, "each method once")
        .optional(),
      recycleBinDays: z.int().min(0).max(3650).optional(),
    })
    .strict()
    .refine((b) => Object.keys(b).length > 0, { message: "name, language, signingMethods or recycleBinDays is required" })
    .describe("What to change; signingMethods only among those the platform offers"),
);
