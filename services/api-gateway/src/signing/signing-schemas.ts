import { z } from "zod";
import { ZInsecureSigningMethod, ZSecureSigningMethod } from "@esign/schema";
import { component } from "../contract/components";

/** The request bodies and parameters of the signing routes, and their answers. */
export const ZSignBody = component("SignRequest", z.object({ method: z.string().min(1).max(64), value: z.string() }));
export const ZRejectBody = component(
  "RejectRequest",
  z.object({
    reason: z
      .string()
      .trim()
      .max(2000)
      .nullish()
      .transform((v) => (v ? v : null)),
  }),
);
export const ZStartBody = component("SecureStartRequest", z.object({ purpose: z.enum(["sign", "identify"]).default("sign") }));
const ZDocumentId = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number);

// 32 random bytes in base64url (signing-link.ts): anything else names no link.
const ZSigningToken = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/)
  .describe("The last path segment of a signing link");

export const ZSigningParams = z.object({ token: ZSigningToken });
export const ZSigningDocumentParams = z.object({ token: ZSigningToken, documentId: ZDocumentId });
// Whether the method is one of the signer's is the route's question (400 method_not_allowed).
export const ZSecureStartParams = z.object({
  token: ZSigningToken,
  method: z
    .string()
    .max(64)
    .describe(`A secure method: ${ZSecureSigningMethod.options.join(", ")}`),
});

// An unknown id still answers the same GIF (tracking-pixel-route.ts): the path says nothing.
export const ZTrackingPixelParams = z.object({
  file: z
    .string()
    .describe("{trackingId}.gif, as written into the signing-request mail")
    .transform((file) => /^(.{1,80})\.gif$/.exec(file)?.[1] ?? null),
});

// Checked against the sealed login state by the identity sessions.
export const ZSecureCallbackQuery = z.object({
  state: z.string().optional().describe("The sealed login state the gateway gave the identity provider"),
  code: z.string().optional().describe("The provider's authorization code"),
  error: z.string().optional().describe("Set by the provider when the login was cancelled or failed"),
  iss: z.string().optional().describe("The provider's issuer (RFC 9207), checked by the OpenID Connect adapter"),
});

// Answers.

export const ZSigningView = component(
  "SigningView",
  z.object({
    signer: z.object({ id: z.int(), name: z.string(), role: z.string(), onBehalfOf: z.string().nullable(), status: z.int() }),
    caseFile: z.object({ id: z.int(), title: z.string(), status: z.int(), sensitiveData: z.boolean(), visibilityMode: z.int() }),
    state: z.enum(["pending", "signed"]),
    signedAt: z.string().nullable(),
    signatureMethod: z.string().nullable(),
    canSign: z.boolean(),
    expireAt: z.string().nullable().describe("The earlier of the signer's and the case file's expiry"),
    documents: z.array(z.object({ id: z.int(), title: z.string(), name: z.string(), signable: z.boolean(), maySign: z.boolean(), url: z.string() })),
    methods: z.object({ insecure: z.array(ZInsecureSigningMethod), secure: z.array(ZSecureSigningMethod) }),
    links: z.object({ page: z.string(), sign: z.string(), reject: z.string(), secureStart: z.record(z.string(), z.string()) }),
  }),
);
export type SigningView = z.input<typeof ZSigningView>;

export const ZSignerActionAnswer = component(
  "SignerActionAnswer",
  z.object({
    status: z.enum(["signed", "rejected", "identified"]),
    signerId: z.int(),
    redirectUrl: z.string().nullable().describe("successUrl / failUrl of the signer when it is an http(s) URL"),
  }),
);

export const ZRedirectAnswer = component("RedirectAnswer", z.object({ redirectUrl: z.url().describe("Where to send the browser: the identity provider") }));
