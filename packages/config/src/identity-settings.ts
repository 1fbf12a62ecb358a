import { z } from "zod";
import { ZSecureSigningMethod } from "@esign/schema";

/**
 * Settings of the identity-provider adapter behind the secure signing methods. `oidc` is a real
 * OpenID Connect relying party (authorization code, PKCE, state, nonce) for a broker that fronts the
 * national eIDs (MitID, BankID, FTN, itsme, ...); `simulator` is the development stand-in.
 */

/** What one secure method asks of the broker. */
export const ZOidcMethodSettings = z
  .object({
    /** `acr_values` of the authorization request: how brokers tell which eID (and level) to use. */
    acrValues: z.string().min(1).max(500).optional(),
    /** Scopes for this method, replacing OIDC_SCOPES; must include `openid`. */
    scope: z
      .string()
      .min(1)
      .max(500)
      .refine((s) => s.split(/\s+/).includes("openid"), "must include openid")
      .optional(),
    /** A fixed `login_hint` some brokers select the eID or a flow with. */
    loginHint: z.string().min(1).max(500).optional(),
    /** The ID token or userinfo claim with the national id, for accessControl; OIDC_NATIONAL_ID_CLAIM otherwise. */
    nationalIdClaim: z.string().min(1).max(200).optional(),
  })
  .strict();
export type OidcMethodSettings = z.infer<typeof ZOidcMethodSettings>;

/** OIDC_METHODS: a JSON object from secure method to its settings; only the methods listed are offered. */
const ZOidcMethods = z
  .string()
  .transform((raw, ctx) => {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: 'must be a JSON object, e.g. {"mitid.dk":{"acrValues":"urn:grn:authn:dk:mitid:substantial"}}' });
      return z.NEVER;
    }
  })
  .pipe(z.partialRecord(ZSecureSigningMethod, ZOidcMethodSettings));

/** What every OpenID client setting is, whichever provider it names (this one, and single sign-on's: sso-settings.ts). */
export const OIDC_CLIENT_SCHEMA = {
  issuer: z.url({ protocol: /^https?$/ }).optional(),
  clientId: z.string().min(1).max(500).optional(),
  clientSecret: z.string().min(1).max(2000).optional(),
  clientAuth: z.enum(["client_secret_basic", "client_secret_post"]).default("client_secret_basic"),
  scopes: (byDefault: string) =>
    z
      .string()
      .default(byDefault)
      .refine((s) => s.split(/\s+/).includes("openid"), "must include openid"),
};

export const IDENTITY_SETTINGS = {
  /** Identity-provider adapter for secure signing methods. The simulator is refused in production. */
  IDENTITY_PROVIDER: z.enum(["simulator", "oidc"]).default("simulator"),
  /** The OpenID provider's issuer identifier; discovery reads `<issuer>/.well-known/openid-configuration`. */
  OIDC_ISSUER: OIDC_CLIENT_SCHEMA.issuer,
  OIDC_CLIENT_ID: OIDC_CLIENT_SCHEMA.clientId,
  OIDC_CLIENT_SECRET: OIDC_CLIENT_SCHEMA.clientSecret,
  /** How the gateway authenticates at the token endpoint. */
  OIDC_CLIENT_AUTH: OIDC_CLIENT_SCHEMA.clientAuth,
  /** Scopes of every login unless a method names its own. */
  OIDC_SCOPES: OIDC_CLIENT_SCHEMA.scopes("openid"),
  /** The claim with the national id, for accessControl; a method's nationalIdClaim wins. */
  OIDC_NATIONAL_ID_CLAIM: z.string().min(1).max(200).optional(),
  OIDC_METHODS: ZOidcMethods.optional(),
  /** Shown in the audit trail as the identity provider; default `OpenID Connect (<issuer>)`. */
  OIDC_DISPLAY_NAME: z.string().min(1).max(200).optional(),
  /** Time limit of each request to the provider (discovery, token, userinfo, keys), in seconds. */
  OIDC_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
};

const ZIdentitySettings = z.object(IDENTITY_SETTINGS);
type IdentityEnv = z.output<typeof ZIdentitySettings> & { NODE_ENV: string };

/** What the oidc adapter cannot run without, and what production does not accept. */
export function identitySettingProblems(env: IdentityEnv): string[] {
  if (env.IDENTITY_PROVIDER !== "oidc") return [];
  const problems: string[] = [];
  const required = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;
  for (const name of required) if (!env[name]) problems.push(`${name}: required with IDENTITY_PROVIDER=oidc`);
  if (!env.OIDC_METHODS || Object.keys(env.OIDC_METHODS).length === 0) {
    problems.push('OIDC_METHODS: required with IDENTITY_PROVIDER=oidc: a JSON object naming at least one secure method, e.g. {"mitid.dk":{}}');
  }
  if (env.NODE_ENV === "production" && env.OIDC_ISSUER && !env.OIDC_ISSUER.startsWith("https:")) problems.push("OIDC_ISSUER: must be https in production");
  return problems;
}
