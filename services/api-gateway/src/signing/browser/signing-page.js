// The signing page's script (served as is by the gateway, see signing-assets.ts; no build step).
// It renders the documents with PDF.js, page by page, runs the signature pad (pointer events: mouse,
// touch and pen alike) and posts drawn and uploaded signatures as JSON. Every text it shows comes
// from the page's data block, in the signer's language. Without it the page still works: documents
// are download links, typed-name signing and rejecting are plain form posts.

const dataBlock = document.getElementById("esign-page-data");
const data = dataBlock ? JSON.parse(dataBlock.textContent || "{}") : {};
const t = data.i18n || {};

/* ---------- documents ---------- */

/** One page: a canvas for the picture (hidden from screen readers) and PDF.js's text layer over it. */
function pageFrame(container, n, total) {
  const figure = document.createElement("figure");
  figure.className = "page";
  const sheet = document.createElement("div");
  sheet.className = "sheet";
  const canvas = document.createElement("canvas");
  canvas.setAttribute("aria-hidden", "true");
  const text = document.createElement("div");
  text.className = "textLayer";
  const caption = document.createElement("figcaption");
  caption.textContent = String(t.pageOf || "{n}/{total}").replace("{n}", String(n)).replace("{total}", String(total));
  sheet.append(canvas, text);
  figure.append(sheet, caption);
  container.append(figure);
  return { sheet, canvas, text, textDone: false, width: 0 };
}

async function paint(pdfjs, page, frame) {
  const width = frame.sheet.clientWidth;
  if (width === 0 || width === frame.width) return;
  frame.width = width;
  const unscaled = page.getViewport({ scale: 1 });
  const scale = width / unscaled.width;
  const viewport = page.getViewport({ scale });
  const ratio = window.devicePixelRatio || 1;
  frame.sheet.style.setProperty("--total-scale-factor", String(scale));
  frame.sheet.style.aspectRatio = `${unscaled.width} / ${unscaled.height}`;
  frame.canvas.width = Math.floor(viewport.width * ratio);
  frame.canvas.height = Math.floor(viewport.height * ratio);
  await page.render({ canvas: frame.canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] }).promise;
  if (!frame.textDone) {
    frame.textDone = true;
    await new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container: frame.text, viewport }).render();
  }
}

async function showDocument(pdfjs, viewer) {
  const status = viewer.querySelector(".status");
  const pages = viewer.querySelector(".pages");
  try {
    const pdf = await pdfjs.getDocument({ url: viewer.dataset.pdf, ...data.pdfjs.options }).promise;
    const shown = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const frame = pageFrame(pages, n, pdf.numPages);
      shown.push({ page, frame });
      await paint(pdfjs, page, frame);
    }
    status.textContent = "";
    status.hidden = true;
    viewer.dataset.rendered = String(pdf.numPages);
    // A turned phone or a resized window: repaint at the new width (the text layer follows by CSS).
    let timer;
    new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => shown.forEach(({ page, frame }) => paint(pdfjs, page, frame)), 150);
    }).observe(pages);
  } catch (err) {
    status.textContent = t.documentUnavailable || "";
    viewer.dataset.rendered = "failed";
    console.warn("document not rendered", err);
  }
}

const viewers = [...document.querySelectorAll("[data-pdf]")];
if (viewers.length > 0 && data.pdfjs) {
  import(data.pdfjs.module).then(
    (pdfjs) => {
      pdfjs.GlobalWorkerOptions.workerSrc = data.pdfjs.worker;
      // One after the other: a phone renders one document at a time.
      viewers.reduce((done, viewer) => done.then(() => showDocument(pdfjs, viewer)), Promise.resolve());
    },
    () => viewers.forEach((viewer) => (viewer.querySelector(".status").textContent = t.documentUnavailable || "")),
  );
}

/* ---------- signature pad ---------- */

const pad = document.getElementById("pad");
const padName = document.getElementById("pad-name");
let padHasInk = false;

function setUpPad() {
  const g = pad.getContext("2d");
  let last = null;
  const fit = () => {
    const box = pad.getBoundingClientRect();
    const ratio = window.devicePixelRatio || 1;
    const w = Math.round(box.width * ratio);
    const h = Math.round(box.height * ratio);
    if (w === pad.width && h === pad.height) return;
    pad.width = w;
    pad.height = h;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    padHasInk = false;
    if (padName && padName.value.trim()) writeName(padName.value);
  };
  const pen = () => {
    g.strokeStyle = "#111";
    g.fillStyle = "#111";
    g.lineWidth = 2.4;
    g.lineCap = "round";
    g.lineJoin = "round";
  };
  const clear = () => {
    g.clearRect(0, 0, pad.width, pad.height);
    padHasInk = false;
  };
  const at = (e) => {
    const box = pad.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  function writeName(name) {
    clear();
    if (!name.trim()) return;
    const box = pad.getBoundingClientRect();
    let size = Math.min(64, box.height * 0.45);
    g.font = `italic ${size}px "Segoe Script", "Brush Script MT", cursive`;
    while (size > 12 && g.measureText(name).width > box.width - 24) {
      size -= 2;
      g.font = `italic ${size}px "Segoe Script", "Brush Script MT", cursive`;
    }
    g.fillStyle = "#111";
    g.fillText(name, 12, box.height * 0.62);
    padHasInk = true;
  }
  fit();
  pen();
  window.addEventListener("resize", () => {
    fit();
    pen();
  });
  pad.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    if (padName && padName.value) {
      padName.value = "";
      clear();
    }
    pad.setPointerCapture(e.pointerId);
    pen();
    last = at(e);
    g.beginPath();
    g.arc(last.x, last.y, 1.2, 0, 2 * Math.PI);
    g.fill();
    padHasInk = true;
  });
  pad.addEventListener("pointermove", (e) => {
    if (!last) return;
    const events = typeof e.getCoalescedEvents === "function" ? e.getCoalescedEvents() : [e];
    for (const ev of events.length > 0 ? events : [e]) {
      const p = at(ev);
      g.beginPath();
      g.moveTo(last.x, last.y);
      g.lineTo(p.x, p.y);
      g.stroke();
      last = p;
    }
  });
  for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) pad.addEventListener(type, () => (last = null));
  pad.closest("form").querySelector("[data-clear]").addEventListener("click", () => {
    clear();
    if (padName) padName.value = "";
  });
  if (padName) padName.addEventListener("input", () => writeName(padName.value));
}

if (pad) setUpPad();

/** The drawing as a PNG of at most 800 px across: small enough for the 64 KiB limit, sharp enough to read. */
function padPng() {
  if (pad.width <= 800) return pad.toDataURL("image/png");
  const out = document.createElement("canvas");
  out.width = 800;
  out.height = Math.round((pad.height * 800) / pad.width);
  out.getContext("2d").drawImage(pad, 0, 0, out.width, out.height);
  return out.toDataURL("image/png");
}

const asDataUrl = (file) =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = reject;
    reader.readAsDataURL(file);
  });

/* ---------- draw and image forms ---------- */

for (const form of document.querySelectorAll("form[data-method]")) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const method = form.dataset.method;
    const out = form.querySelector(".err");
    const button = form.querySelector("button[type=submit]");
    let value;
    if (method === "draw") {
      if (!padHasInk) {
        out.textContent = t.drawFirst || "";
        (padName || pad).focus();
        return;
      }
      value = padPng();
    } else {
      const file = form.querySelector("input[type=file]").files[0];
      if (!file) {
        out.textContent = t.chooseImageFirst || "";
        return;
      }
      value = await asDataUrl(file);
    }
    out.textContent = "";
    const label = button.textContent;
    button.disabled = true;
    button.textContent = t.signing || label;
    try {
      const res = await fetch(form.action, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ method, value }),
      });
      const body = await res.json().catch(() => ({}));
      if (res.ok) {
        // The page itself now shows the signed state (or the sender's successUrl takes over).
        location.assign(body.redirectUrl || location.pathname);
        return;
      }
      out.textContent = (t.errors && t.errors[body.error]) || t.signFailed || "";
    } catch {
      out.textContent = t.signFailed || "";
    }
    button.disabled = false;
    button.textContent = label;
  });
}
