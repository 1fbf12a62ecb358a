/**
 * The signer's pages' one stylesheet (inline under the page's nonce). Mobile first: everything fits
 * a 375 px wide phone; PDF pages scale to the column. `.textLayer` is the part of PDF.js's viewer
 * CSS its text layer needs (selectable, screen-reader readable text over the rendered page).
 */
export const PAGE_STYLE = `:root{color-scheme:light}*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d1d1f;background:#f4f5f7;line-height:1.5}
main{max-width:52rem;margin:0 auto;padding:1rem}
.skip{position:absolute;left:-9999px;top:0;background:#fff;color:#1a56db;padding:.5rem 1rem;z-index:10}.skip:focus{left:1rem}
h1{font-size:1.5rem;margin:.5rem 0;overflow-wrap:anywhere}h2{font-size:1.2rem;margin:0 0 .5rem}h3{font-size:1.05rem;margin:0 0 .5rem;overflow-wrap:anywhere}
section,.doc{background:#fff;border:1px solid #d0d4da;border-radius:8px;padding:1rem;margin:1rem 0}
.doc.to-sign,.done{border-left:6px solid #0b6b3a}
.badge{display:inline-block;font-size:.8rem;font-weight:600;padding:.05rem .55rem;border-radius:999px;margin-left:.35rem;vertical-align:middle;white-space:nowrap}
.badge.sign{background:#e3f4ea;color:#0b5a31;border:1px solid #0b6b3a}.badge.info{background:#eef0f3;color:#333;border:1px solid #767676}
.muted{color:#555}.who span+span::before{content:" · "}
.pages{display:flex;flex-direction:column;gap:1rem;margin-top:.75rem}
figure.page{margin:0}figcaption{font-size:.85rem;color:#555;text-align:center;margin-top:.25rem}
.sheet{position:relative;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.3);--scale-round-x:1px;--scale-round-y:1px}
.sheet canvas{display:block;width:100%;height:auto}
.textLayer{position:absolute;inset:0;overflow:clip;line-height:1;text-align:initial;transform-origin:0 0;z-index:0;
--min-font-size:1;--text-scale-factor:calc(var(--total-scale-factor) * var(--min-font-size));--min-font-size-inv:calc(1 / var(--min-font-size))}
.textLayer :is(span,br){color:transparent;position:absolute;white-space:pre;cursor:text;transform-origin:0 0}
.textLayer>:not(.markedContent),.textLayer .markedContent span:not(.markedContent){z-index:1;--font-height:0;font-size:calc(var(--text-scale-factor) * var(--font-height));
--scale-x:1;--rotate:0deg;transform:rotate(var(--rotate)) scaleX(var(--scale-x)) scale(var(--min-font-size-inv))}
.textLayer .markedContent{display:contents}.textLayer ::selection{background:rgba(0,0,255,.25)}
.method{border-top:1px solid #d0d4da;padding-top:.75rem;margin-top:.75rem}
label{display:block;font-weight:600;margin:.5rem 0 .25rem}
input[type=text],textarea{display:block;width:100%;max-width:28rem;padding:.5rem;font:inherit;border:1px solid #767676;border-radius:4px}
input[type=file]{max-width:100%}
button{font:inherit;padding:.55rem 1.1rem;border-radius:6px;border:1px solid #1a56db;background:#1a56db;color:#fff;cursor:pointer;margin:.5rem .5rem 0 0}
button.secondary{background:#fff;color:#1a56db}button.danger{background:#fff;color:#a4161a;border-color:#a4161a}button:disabled{opacity:.6}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}
.pad{display:block;width:100%;max-width:32rem;height:180px;border:2px dashed #767676;border-radius:6px;background:#fff;touch-action:none;cursor:crosshair}
.err{color:#a4161a;font-weight:600;min-height:1.5em;margin:.5rem 0 0}
.banner{background:#fff3cd;border:2px solid #d39e00;padding:.75rem;font-weight:700}
@media (max-width:30rem){main{padding:.5rem}section,.doc{padding:.75rem}h1{font-size:1.3rem}}`;
