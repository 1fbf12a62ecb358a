import type { ContractHandler } from "../contract/serve";
import { ZBinaryFile } from "../contract/common-schemas";
import { errors, json, PUBLIC, route, TAGS } from "../contract/route";
import { SECURE_CALLBACK_PATH } from "../identity/callback-path";
import { SIGNING_ASSETS_PATH, ZPdfjsFileParams, ZPdfjsFolderParams, ZSigningAssetParams } from "./signing-asset-files";
import {
  ZRedirectAnswer,
  ZRejectBody,
  ZSecureCallbackQuery,
  ZSecureStartParams,
  ZSignBody,
  ZSignerActionAnswer,
  ZSigningDocumentParams,
  ZSigningParams,
  ZSigningView,
  ZStartBody,
  ZTrackingPixelParams,
} from "./signing-schemas";

const NEGOTIATION =
  "The signing token in the path is the credential. Browsers get HTML pages (also for refusals); " +
  "API clients send `Accept: application/json` and get JSON with the contract's error body.";
const FORM_POST = "A plain form post from the signing page (urlencoded, Accept: text/html) is answered with a page or a 303 redirect instead.";

const refusals = (extra: Record<number, string> = {}) =>
  errors({
    404: "Unknown signing link",
    409: "Already signed, not yet sent or not yet active",
    410: "The link is over: deleted, rejected, expired or the case file is closed",
    ...extra,
  });

const redirect = { 303: { description: "Form posts: redirect to successUrl / failUrl or the identity provider" } };

export function signingRoutes() {
  const base = { tags: [TAGS.signing], security: PUBLIC } as const;
  const bodyTypes = ["application/json", "application/x-www-form-urlencoded"] as const;
  return {
    getSigningPage: route({
      ...base,
      method: "get",
      path: "/sign/{token}",
      operationId: "getSigningPage",
      summary: "The signing page: documents, allowed methods, sign and reject",
      description: `${NEGOTIATION} A GET by a signer who can act counts as \`opened\`.`,
      request: { params: ZSigningParams },
      responses: {
        200: { description: "The page (text/html) or its data (application/json)", content: { "text/html": null, ...json(ZSigningView) } },
        ...refusals({ 403: "Identity validation required first (sensitiveData / accessControl)" }),
      },
    }),
    getSigningDocument: route({
      ...base,
      method: "get",
      path: "/sign/{token}/documents/{documentId}",
      operationId: "getSigningDocument",
      summary: "A PDF the signer may see",
      request: { params: ZSigningDocumentParams },
      responses: {
        200: { description: "The PDF (the signed one once finalized)", content: { "application/pdf": ZBinaryFile } },
        ...refusals({ 403: "Identity validation required first", 404: "Unknown link or a document this signer may not see" }),
      },
    }),
    sign: route({
      ...base,
      method: "post",
      path: "/sign/{token}/sign",
      operationId: "sign",
      summary: "Sign with an insecure method (text, draw, image)",
      description: `Secure methods go through /sign/{token}/secure/{method}/start. ${FORM_POST}`,
      request: { params: ZSigningParams, body: { schema: ZSignBody, mediaTypes: bodyTypes } },
      responses: {
        200: { description: "Signed", content: json(ZSignerActionAnswer) },
        ...redirect,
        ...refusals({ 400: "Invalid body, method not allowed or a secure method", 403: "Nothing to sign for this role, or identity required" }),
      },
    }),
    reject: route({
      ...base,
      method: "post",
      path: "/sign/{token}/reject",
      operationId: "reject",
      summary: "Reject the signing request",
      description: FORM_POST,
      request: { params: ZSigningParams, body: { schema: ZRejectBody, mediaTypes: bodyTypes, required: false } },
      responses: {
        200: { description: "Rejected", content: json(ZSignerActionAnswer) },
        ...redirect,
        ...refusals({ 400: "Invalid body", 403: "Identity required" }),
      },
    }),
    startSecureLogin: route({
      ...base,
      method: "post",
      path: "/sign/{token}/secure/{method}/start",
      operationId: "startSecureLogin",
      summary: "Start an identity-provider login, to sign or to identify",
      description: FORM_POST,
      request: { params: ZSecureStartParams, body: { schema: ZStartBody, mediaTypes: bodyTypes, required: false } },
      responses: {
        200: { description: "Where to send the browser", content: json(ZRedirectAnswer) },
        ...redirect,
        ...refusals({
          400: "Method not allowed for this signer",
          503: "No identity provider configured, none for this method, or the provider cannot be reached",
        }),
      },
    }),
    secureLoginCallback: route({
      ...base,
      method: "get",
      path: SECURE_CALLBACK_PATH,
      operationId: "secureLoginCallback",
      summary: "Where the identity provider sends the browser back",
      description:
        "One address for every signing link (register it at the OpenID provider as the redirect URI); the sealed `state` names the signer. " +
        "Signs (like POST /sign) or, for purpose identify, grants the identity cookie. Only works in the browser that started the login.",
      request: { query: ZSecureCallbackQuery },
      responses: {
        200: { description: "Signed or identified (JSON clients)", content: json(ZSignerActionAnswer) },
        303: { description: "Browsers: back to the signing page or to successUrl" },
        ...refusals({
          400: "Invalid or foreign login state; cancelled login; an answer that does not verify (state, nonce, issuer, acr, an expired or used code)",
          403: "accessControl: the identity does not match",
          503: "No identity provider configured, or the provider cannot be reached",
        }),
      },
    }),
    signingPageScript: route({
      ...base,
      method: "get",
      path: `${SIGNING_ASSETS_PATH}/{file}`,
      operationId: "signingPageScript",
      summary: "The signing page's script (PDF viewer, signature pad)",
      request: { params: ZSigningAssetParams },
      responses: { 200: { description: "JavaScript module", content: { "text/javascript": ZBinaryFile } }, ...errors({ 404: "Not the page's script" }) },
    }),
    pdfjsModule: route({
      ...base,
      method: "get",
      path: `${SIGNING_ASSETS_PATH}/pdfjs/{file}`,
      operationId: "pdfjsModule",
      summary: "PDF.js (pdfjs-dist) and its worker, served by this gateway (no CDN)",
      request: { params: ZPdfjsFileParams },
      responses: { 200: { description: "JavaScript module", content: { "text/javascript": ZBinaryFile } }, ...errors({ 404: "Not one of the two files" }) },
    }),
    pdfjsData: route({
      ...base,
      method: "get",
      path: `${SIGNING_ASSETS_PATH}/pdfjs/{folder}/{file}`,
      operationId: "pdfjsData",
      summary: "Fonts, character maps, colour profiles and image decoders PDF.js fetches while rendering",
      request: { params: ZPdfjsFolderParams },
      responses: { 200: { description: "The file", content: { "application/octet-stream": ZBinaryFile } }, ...errors({ 404: "No such file" }) },
    }),
    trackingPixel: route({
      ...base,
      method: "get",
      path: "/t/{file}",
      operationId: "trackingPixel",
      summary: "Open-tracking pixel of the signing-request mail",
      description: "Always the same 1x1 GIF, whatever the id: the answer tells nothing about signers.",
      request: { params: ZTrackingPixelParams },
      responses: { 200: { description: "A transparent GIF", content: { "image/gif": ZBinaryFile } } },
    }),
  };
}

export type SigningRoutes = ReturnType<typeof signingRoutes>;
/** The handler of one signing route, typed from its contract. */
export type SigningHandler<K extends keyof SigningRoutes> = ContractHandler<SigningRoutes[K]>;
