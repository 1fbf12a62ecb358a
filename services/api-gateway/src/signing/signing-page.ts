import type { Response } from "express";
import { escapeHtml, sendHtml } from "./html";
import type { SigningView } from "./signing-view";

const METHOD_LABELS: Record<string, string> = { text: "Type your name", draw: "Draw your signature", image: "Upload an image of your signature" };

// Draw and image signatures need the browser to build a data URL; they post JSON like an API client.
const SCRIPT = `
const pad = document.getElementById("pad");
if (pad) {
  const g = pad.getContext("2d"); g.lineWidth = 2; let down = false;
  pad.addEventListener("pointerdown", (e) => { down = true; g.beginPath(); g.moveTo(e.offsetX, e.offsetY); });
  pad.addEventListener("pointermove", (e) => { if (down) { g.lineTo(e.offsetX, e.offsetY); g.stroke(); } });
  for (const t of ["pointerup", "pointerleave"]) pad.addEventListener(t, () => { down = false; });
}
const asDataUrl = (file) => new Promise((ok, fail) => { const r = new FileReader(); r.onload = () => ok(r.result); r.onerror = fail; r.readAsDataURL(file); });
for (const form of document.querySelectorAll("form[data-method]")) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const method = form.dataset.method;
    const out = form.querySelector(".err");
    let value;
    if (method === "draw") value = pad.toDataURL("image/png");
    else { const file = form.querySelector("input[type=file]").files[0]; if (!file) return; value = await asDataUrl(file); }
    const res = await fetch(form.action, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ method, value }) });
    const body = await res.json();
    if (res.ok) location.href = body.redirectUrl || location.href; else out.textContent = body.message;
  });
}`;

function documentList(view: SigningView): string {
  if (view.documents.length === 0) return `<p class="muted">No documents are shown to you.</p>`;
  const items = view.documents.map(
    (d) =>
      `<li><a href="${escapeHtml(d.url)}" target="_blank" rel="noopener">${escapeHtml(d.title)}</a> <span class="muted">(${escapeHtml(d.name)})</span> — ` +
      `${d.maySign ? "<strong>to sign</strong>" : "for your information"}</li>`,
  );
  return `<ul>${items.join("")}</ul>`;
}

function signForms(view: SigningView): string {
  const forms: string[] = [];
  for (const m of view.methods.insecure) {
    const label = `<h3>${escapeHtml(METHOD_LABELS[m] ?? m)}</h3>`;
    if (m === "text") {
      forms.push(
        `${label}<form method="post" action="${escapeHtml(view.links.sign)}"><input type="hidden" name="method" value="text">` +
          `<input name="value" required maxlength="200" placeholder="Your full name" autocomplete="name"> <button>Sign</button></form>`,
      );
    } else if (m === "draw") {
      forms.push(
        `${label}<canvas id="pad" width="400" height="150"></canvas><form method="post" data-method="draw" action="${escapeHtml(view.links.sign)}">` +
          `<button>Sign with this drawing</button> <span class="err"></span></form>`,
      );
    } else {
      forms.push(
        `${label}<form method="post" data-method="image" action="${escapeHtml(view.links.sign)}">` +
          `<input type="file" accept="image/png,image/jpeg" required> <button>Sign with this image</button> <span class="err"></span></form>`,
      );
    }
  }
  if (view.methods.secure.length > 0) forms.push(`<h3>Sign with an eID</h3>`);
  for (const m of view.methods.secure) {
    forms.push(
      `<form method="post" action="${escapeHtml(view.links.secureStart[m] ?? "")}"><input type="hidden" name="purpose" value="sign">` +
        `<button>Sign with ${escapeHtml(m)}</button></form>`,
    );
  }
  return forms.join("");
}

export function sendSigningPage(res: Response, view: SigningView, idpOrigins: readonly string[]): void {
  const who = `${escapeHtml(view.signer.name)} <span class="muted">(${escapeHtml(view.signer.role)}${view.signer.onBehalfOf ? `, on behalf of ${escapeHtml(view.signer.onBehalfOf)}` : ""})</span>`;
  const parts = [`<h1>${escapeHtml(view.caseFile.title)}</h1>`, `<p>For ${who}</p>`];
  if (view.expireAt) parts.push(`<p class="muted">Open until ${escapeHtml(view.expireAt.slice(0, 16).replace("T", " "))} UTC</p>`);
  parts.push(`<section><h2>Documents</h2>${documentList(view)}</section>`);
  if (view.state === "signed") {
    parts.push(`<section><h2>Signed</h2><p>You signed${view.signedAt ? ` on ${escapeHtml(view.signedAt.slice(0, 16).replace("T", " "))} UTC` : ""}. Nothing more to do.</p></section>`);
  } else if (view.canSign) {
    parts.push(`<section><h2>Sign</h2>${signForms(view)}</section>`);
  } else {
    parts.push(`<section><p>There is nothing for you to sign with this link (no document for your role, or no signing method enabled). You can still reject.</p></section>`);
  }
  if (view.state !== "signed") {
    parts.push(
      `<section><h2>Reject</h2><form method="post" action="${escapeHtml(view.links.reject)}">` +
        `<p><textarea name="reason" maxlength="2000" rows="3" cols="50" placeholder="Reason (optional)"></textarea></p><button>Reject the request</button></form></section>`,
    );
  }
  const hasScript = view.methods.insecure.some((m) => m !== "text");
  sendHtml(res, 200, { title: view.caseFile.title, body: parts.join(""), ...(hasScript ? { script: SCRIPT } : {}), formOrigins: idpOrigins });
}

/** sensitiveData / accessControl: identity first; the documents stay hidden until then. */
export function sendIdentityPage(res: Response, title: string, startUrls: Record<string, string>, idpOrigins: readonly string[]): void {
  const buttons = Object.entries(startUrls).map(
    ([m, url]) => `<form method="post" action="${escapeHtml(url)}"><input type="hidden" name="purpose" value="identify"><button>Validate with ${escapeHtml(m)}</button></form>`,
  );
  sendHtml(res, 200, {
    title,
    body: `<h1>${escapeHtml(title)}</h1><section><h2>Validate your identity</h2><p>These documents are confidential. Validate your identity to see them.</p>${buttons.join("")}</section>`,
    formOrigins: idpOrigins,
  });
}
