import type { Response } from "express";
import type { TLanguage } from "@esign/i18n";
import type { TSecureSigningMethod } from "@esign/schema";
import { escapeHtml, sendHtml } from "../html/html-page";
import { formatWhen, signingMessages } from "./messages/catalog";
import type { SigningMessages } from "./messages/signing-messages";
import { REFUSAL_TEXTS } from "./negotiate";
import { PDFJS_OPTIONS, SIGNING_PAGE_SCRIPT, pdfjsAsset } from "./signing-asset-files";
import type { SigningView } from "./signing-view";

/**
 * The signing page: who it is for, every document the signer may see, rendered inline page by page
 * (PDF.js, from this gateway) with the ones to sign marked, then the signing methods and rejecting.
 * Without JavaScript the documents are download links and text signing and rejecting still work
 * (plain form posts); drawing and image upload need the script.
 */

const e = escapeHtml;

function header(view: SigningView, m: SigningMessages, language: TLanguage): string {
  const who = [
    `<span>${e(m.page.forSigner(view.signer.name))}</span>`,
    `<span>${e(m.page.role(view.signer.role))}</span>`,
    ...(view.signer.onBehalfOf ? [`<span>${e(m.page.onBehalfOf(view.signer.onBehalfOf))}</span>`] : []),
  ].join("");
  const until = view.expireAt && view.state !== "signed" ? `<p class="muted">${e(m.page.openUntil(formatWhen(language, new Date(view.expireAt))))}</p>` : "";
  return `<header><h1>${e(view.caseFile.title)}</h1><p class="who">${who}</p>${until}</header>`;
}

function documentsSection(view: SigningView, m: SigningMessages): string {
  if (view.documents.length === 0)
    return `<section aria-labelledby="documents-heading"><h2 id="documents-heading">${e(m.page.documentsHeading)}</h2><p class="muted">${e(m.page.noDocuments)}</p></section>`;
  const docs = view.documents.map((d, i) => {
    const id = `doc-${i + 1}`;
    const badge = d.maySign ? `<span class="badge sign">${e(m.page.toSign)}</span>` : `<span class="badge info">${e(m.page.forInformation)}</span>`;
    return (
      `<article class="doc${d.maySign ? " to-sign" : ""}" aria-labelledby="${id}-title">` +
      `<h3 id="${id}-title">${e(d.title)} ${badge}</h3>` +
      `<p><a href="${e(d.url)}" download="${e(d.name)}">${e(m.page.downloadPdf(d.name))}</a></p>` +
      `<div class="viewer" role="region" aria-label="${e(m.page.documentPages(d.title))}" data-pdf="${e(d.url)}">` +
      `<p class="status muted" role="status">${e(m.page.loadingDocument)}</p><div class="pages"></div></div></article>`
    );
  });
  return `<section aria-labelledby="documents-heading"><h2 id="documents-heading">${e(m.page.documentsHeading)}</h2><p>${e(m.page.documentsIntro)}</p>${docs.join("")}</section>`;
}

function textForm(view: SigningView, m: SigningMessages): string {
  return (
    `<form method="post" action="${e(view.links.sign)}"><input type="hidden" name="method" value="text">` +
    `<label for="typed-name">${e(m.page.fullNameLabel)}</label><input id="typed-name" type="text" name="value" required maxlength="200" autocomplete="name">` +
    `<button type="submit">${e(m.page.signButton)}</button></form>`
  );
}

function drawForm(view: SigningView, m: SigningMessages): string {
  return (
    `<p id="draw-help">${e(m.page.drawInstructions)}</p>` +
    `<form method="post" data-method="draw" action="${e(view.links.sign)}" novalidate>` +
    `<canvas id="pad" class="pad" role="img" aria-label="${e(m.page.padLabel)}" aria-describedby="draw-help"></canvas>` +
    `<label for="pad-name">${e(m.page.typeInsteadLabel)}</label><input id="pad-name" type="text" maxlength="80" autocomplete="name">` +
    `<button type="button" class="secondary" data-clear>${e(m.page.clearDrawing)}</button><button type="submit">${e(m.page.signWithDrawing)}</button>` +
    `<p class="err" role="alert"></p></form>`
  );
}

function imageForm(view: SigningView, m: SigningMessages): string {
  return (
    `<form method="post" data-method="image" action="${e(view.links.sign)}" novalidate>` +
    `<label for="signature-image">${e(m.page.imageLabel)}</label><input id="signature-image" type="file" accept="image/png,image/jpeg">` +
    `<button type="submit">${e(m.page.signWithImage)}</button><p class="err" role="alert"></p></form>`
  );
}

function secureForms(view: SigningView, m: SigningMessages): string {
  const forms = view.methods.secure.map(
    (method: TSecureSigningMethod) =>
      `<form method="post" action="${e(view.links.secureStart[method] ?? "")}"><input type="hidden" name="purpose" value="sign">` +
      `<button type="submit">${e(m.page.signWith(m.methods[method]))}</button></form>`,
  );
  return `<div class="method"><h3>${e(m.page.eidHeading)}</h3>${forms.join("")}</div>`;
}

function signSection(view: SigningView, m: SigningMessages): string {
  if (!view.canSign) return `<section id="sign" tabindex="-1"><p>${e(m.page.nothingToSign)}</p></section>`;
  const methods = view.methods.insecure.map((method) => {
    const form = method === "text" ? textForm(view, m) : method === "draw" ? drawForm(view, m) : imageForm(view, m);
    return `<div class="method"><h3>${e(m.page.methodHeadings[method])}</h3>${form}</div>`;
  });
  if (view.methods.secure.length > 0) methods.push(secureForms(view, m));
  return `<section id="sign" tabindex="-1" aria-labelledby="sign-heading"><h2 id="sign-heading">${e(m.page.signHeading)}</h2><p>${e(m.page.signConsent)}</p>${methods.join("")}</section>`;
}

function rejectSection(view: SigningView, m: SigningMessages): string {
  return (
    `<section aria-labelledby="reject-heading"><h2 id="reject-heading">${e(m.page.rejectHeading)}</h2><p>${e(m.page.rejectIntro)}</p>` +
    `<form method="post" action="${e(view.links.reject)}"><label for="reject-reason">${e(m.page.rejectReasonLabel)}</label>` +
    `<textarea id="reject-reason" name="reason" maxlength="2000" rows="3"></textarea><button type="submit" class="danger">${e(m.page.rejectButton)}</button></form></section>`
  );
}

function signedSection(view: SigningView, m: SigningMessages, language: TLanguage): string {
  const when = view.signedAt ? ` ${m.page.signedOn(formatWhen(language, new Date(view.signedAt)))}` : "";
  return `<section class="done" role="status" aria-labelledby="signed-heading"><h2 id="signed-heading">${e(m.page.signedHeading)}</h2><p>${e(`${m.page.thankYou}${when}`)}</p></section>`;
}

/** What the page's script needs: its texts in the page's language and where PDF.js lives. */
function scriptData(m: SigningMessages) {
  return {
    i18n: {
      ...m.browser,
      loadingDocument: m.page.loadingDocument,
      documentUnavailable: m.page.documentUnavailable,
      pageOf: m.page.pageOf("{n}", "{total}"),
      // Codes with a date in them get the text without it: the browser only ever shows these for codes without params.
      errors: Object.fromEntries(Object.entries(REFUSAL_TEXTS).map(([code, text]) => [code, text(m, {}, (d) => d.toISOString())])),
    },
    pdfjs: { module: pdfjsAsset("pdf.min.mjs"), worker: pdfjsAsset("pdf.worker.min.mjs"), options: PDFJS_OPTIONS },
  };
}

export function sendSigningPage(res: Response, view: SigningView, language: TLanguage, idpOrigins: readonly string[]): void {
  const m = signingMessages(language);
  const signed = view.state === "signed";
  const skip = signed ? "" : `<a class="skip" href="#sign">${e(m.page.skipToSign)}</a>`;
  const parts = [header(view, m, language)];
  if (signed) parts.push(signedSection(view, m, language));
  parts.push(documentsSection(view, m));
  if (!signed) parts.push(signSection(view, m), rejectSection(view, m));
  sendHtml(res, 200, {
    lang: language,
    title: view.caseFile.title,
    body: `${skip}<main id="main">${parts.join("")}</main>`,
    scripts: [SIGNING_PAGE_SCRIPT],
    data: scriptData(m),
    formOrigins: idpOrigins,
  });
}

/** sensitiveData / accessControl: identity first; the documents stay hidden until then. */
export function sendIdentityPage(
  res: Response,
  language: TLanguage,
  title: string,
  startUrls: Partial<Record<TSecureSigningMethod, string>>,
  idpOrigins: readonly string[],
): void {
  const m = signingMessages(language);
  const buttons = (Object.entries(startUrls) as [TSecureSigningMethod, string][]).map(
    ([method, url]) =>
      `<form method="post" action="${e(url)}"><input type="hidden" name="purpose" value="identify"><button type="submit">${e(m.page.validateWith(m.methods[method]))}</button></form>`,
  );
  sendHtml(res, 200, {
    lang: language,
    title,
    body: `<main id="main"><h1>${e(title)}</h1><section aria-labelledby="identity-heading"><h2 id="identity-heading">${e(m.page.identityHeading)}</h2><p>${e(m.page.identityIntro)}</p>${buttons.join("")}</section></main>`,
    formOrigins: idpOrigins,
  });
}
