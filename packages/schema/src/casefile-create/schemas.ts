import { z } from "zod";
import { ZChannel, ZEmailFormat, ZInsecureSigningMethod, ZLanguage, ZSecureSigningMethod, ZSsnType } from "../enums";

/*
 * The create payload's shape: field rules (types, formats, lengths) per resource. Rules that relate
 * fields to each other are in cross-field-rules.ts; the words of the errors in messages.ts.
 */

/*
 * Schemas wrapped by `orNull` are remembered so that the error map can say "must be a string or
 * null": zod reports the type issue on the inner schema and never tells which wrapper was around it.
 */
export const acceptsNull = new WeakSet<object>();
function orNull<T extends z.ZodType>(schema: T): z.ZodNullable<T> {
  acceptsNull.add(schema);
  return schema.nullable();
}

/*
 * zod reports a non-number given to z.int() as expected "number"; remembering the integer schemas lets
 * the message still say "integer".
 */
export const integerSchemas = new WeakSet<object>();
/** The largest value of PostgreSQL's `integer`, the columns these numbers are stored in. */
const INT4_MAX = 2_147_483_647;
function integer(min: number, max = INT4_MAX) {
  const schema = z.int().min(min).max(max);
  integerSchemas.add(schema);
  return schema;
}

/** Unix seconds up to the end of year 9999: a time PostgreSQL and JavaScript can both hold. */
const timestamp = () => integer(0, 253_402_300_799);

// A leading/trailing whitespace check that lets "" through, so an empty role yields only too_small.
const NO_OUTER_WHITESPACE = /^(?!\s)[\s\S]*(?<!\s)$/;
const role = () => z.string().min(3).regex(NO_OUTER_WHITESPACE, { error: "must not start or end with whitespace" });

const CPR = /^\d{10}$/;
const CVR = /^\d{8}(?::[A-Za-z0-9]+)?$/;

/*
 * successUrl/failUrl become redirect targets of the signing page, so script-capable schemes are
 * refused even though they are syntactically valid URIs (a stored XSS vector otherwise). Custom app
 * schemes stay allowed for mobile deep links.
 */
const SAFE_URI_SCHEME = /^(?!(?:javascript|data|vbscript)$)[a-z][a-z0-9+.-]*$/i;
const redirectUri = () => z.url({ protocol: SAFE_URI_SCHEME }).min(5);

const textMin5 = () => z.string().min(5);

// The spec's "2 to 255 chars" with "" meaning "use the default": too_small keeps the code stable.
const senderName = orNull(
  z
    .string()
    .max(255)
    .superRefine((value, ctx) => {
      if (value.length === 1) {
        ctx.addIssue({
          code: "too_small",
          origin: "string",
          minimum: 2,
          inclusive: true,
          input: value,
          message: "must be empty or at least 2 characters",
        });
      }
    }),
)
  .default(null)
  // Downstream code then has a single "use the default" value to look for.
  .transform((value) => (value === "" ? null : value));

export const ZCcRecipient = z.strictObject({
  name: z.string().min(1),
  email: z.email(),
  storeAsContact: z.boolean().default(true),
});

export const ZSigner = z.strictObject({
  name: z.string().min(1),
  // The Limits table's "min 5 chars" for signer email is implied: no string under 6 chars passes z.email().
  email: z.email().optional(),
  channel: ZChannel.default("email"),
  cpr: z.string().regex(CPR, { error: "must be exactly 10 digits" }).optional(),
  cvr: z.string().regex(CVR, { error: "must be 8 digits, optionally followed by :suffix (letters and digits)" }).optional(),
  socialSecurityNumberPlain: orNull(z.string()).optional(),
  vatin: orNull(z.string()).optional(),
  role: role().default("Signer"),
  onBehalfOf: z.string().optional(),
  signOrder: integer(0).default(0),
  ssnType: ZSsnType.optional(),
  accessControl: z.boolean().optional(),
  successUrl: redirectUri().optional(),
  failUrl: redirectUri().optional(),
  // null defers to the case file language (then `da` for eboks), so it is the natural default.
  language: orNull(ZLanguage).default(null),
  emailFormat: ZEmailFormat.optional(),
  emailSubject: textMin5().optional(),
  emailText: textMin5().optional(),
  reminderInterval: integer(1).optional(),
  reminderEmailSubject: textMin5().optional(),
  reminderEmailText: textMin5().optional(),
  completedEmailSubject: textMin5().optional(),
  completedEmailText: textMin5().optional(),
  activeAt: orNull(timestamp()).default(null),
  expireAt: orNull(timestamp()).default(null),
  enableInsecureSigning: z.boolean().default(false),
  insecureSigningMethods: z.array(ZInsecureSigningMethod).optional(),
  // No default: omitted means "all methods of the account", [] means "none"; the two must stay apart.
  secureSigningMethods: z.array(ZSecureSigningMethod).optional(),
  storeAsContact: z.boolean().optional(),
});

export const ZDocument = z.strictObject({
  title: z.string().min(1).max(1024),
  name: z.string().min(1),
  signable: z.boolean().default(true),
  roles: z.array(role()).optional(),
  documentOrder: integer(0).optional(),
  metaData: z.string().optional(),
});

export const ZCaseFile = z.strictObject({
  title: z.string().min(1).max(1024),
  signers: z.array(ZSigner).min(1),
  documents: z.array(ZDocument).min(1),
  activateCaseFile: z.boolean().default(true),
  ccRecipients: z.array(ZCcRecipient).optional(),
  language: orNull(ZLanguage).default(null),
  metaData: z.string().optional(),
  reference: z.string().optional(),
  folderId: integer(1).optional(),
  sendAt: orNull(timestamp()).default(null),
  expireAt: orNull(timestamp()).default(null),
  sensitiveData: z.boolean().default(false),
  visibilityMode: z.literal([0, 1]).default(0),
  disableNotificationsOwner: z.boolean().default(false),
  disableEmailAttachments: z.boolean().default(false),
  senderName,
  signOnMeeting: z.boolean().default(false),
});

export const ZCaseFileCreateData = z.strictObject({
  caseFile: ZCaseFile,
});

export type TCcRecipient = z.output<typeof ZCcRecipient>;
export type TSigner = z.output<typeof ZSigner>;
export type TDocument = z.output<typeof ZDocument>;
export type TCaseFile = z.output<typeof ZCaseFile>;
export type TCaseFileCreateData = z.output<typeof ZCaseFileCreateData>;
/** What a client may send (defaults not yet applied). */
export type TCaseFileCreateInput = z.input<typeof ZCaseFileCreateData>;
