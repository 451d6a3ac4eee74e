/**
 * The frame of report.html: its style, its one script, the Content-Security-Policy that lets only that script
 * run (by its hash) and loads nothing from anywhere, and HTML escaping. The script reads the page's data
 * attributes, never report data, so nothing in a report can become code.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { stripControls } from "./sanitize.ts";

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  const clean = stripControls(text);
  return HAS_HTML_SPECIAL.test(clean) ? clean.replace(HTML_SPECIAL, (char) => HTML_ENTITY[char]!) : clean;
}

const HAS_HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIAL = /[&<>"']/g;
const HTML_ENTITY: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** The page's style sheet, inline. */
export const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#222}
h1{font-size:1.4rem;margin:0 0 .3rem}
.meta{color:#555;margin-bottom:1rem}
fieldset{display:inline-block;border:1px solid #ccc;margin:0 .5rem .8rem 0;padding:.3rem .6rem}
label{margin-right:.6rem;white-space:nowrap}
table{border-collapse:collapse;margin-bottom:1rem}
th,td{border:1px solid #ddd;padding:.2rem .5rem}
th[scope=row]{text-align:left;font-weight:normal}
td.mark{text-align:center;font-weight:bold}
td.mark a{text-decoration:none;color:inherit}
td.off{opacity:.15}
th[scope=row] .title{color:#555;font-size:.85rem}
.clause{font-size:.75rem;border:1px solid #1a5fb4;border-radius:3px;padding:0 .25rem;color:#1a5fb4}
a.self{color:#999;text-decoration:none;margin-left:.3rem}
.PASS{color:#137333}.FAIL,.TIMEOUT{color:#c5221f}.ERROR{color:#a0138e}.WARN{color:#b06000}
.INFO{color:#1a5fb4}.SKIP{color:#777}
.tag{font-size:.75rem;border:1px solid #aaa;border-radius:3px;padding:0 .25rem;color:#555;font-weight:normal}
.bad{background:#c5221f;color:#fff;border-radius:3px;padding:0 .3rem;font-size:.8rem}
.stale{background:#b06000;color:#fff;border-radius:3px;padding:0 .3rem;font-size:.8rem}
details{border-bottom:1px solid #eee;padding:.2rem 0}
summary{cursor:pointer}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-word}
ol.notes{color:#555}
#capabilities td.unexpected,#acp td.unexpected{outline:2px solid #c5221f}
#board td[data-verdict=unexpected]{outline:2px solid #c5221f;background:#fce8e6}
#board td[data-verdict=stale]{outline:2px solid #b06000}
.verdict{font-size:1.15rem;padding:.6rem .9rem;border-radius:4px;margin:.4rem 0 .8rem;color:#fff}
.verdict.pass{background:#137333}.verdict.fail{background:#c5221f}.verdict.incomplete{background:#b06000}
.verdict .counts{display:block;font-size:.9rem;opacity:.95;margin-top:.2rem}
.triage h2{font-size:1.1rem;margin:.8rem 0 .3rem}
.item{border-left:4px solid #c5221f;padding:.2rem .6rem;margin:.3rem 0 .6rem;background:#fafafa}
.item[data-verdict=known]{border-left-color:#999}.item[data-verdict=stale]{border-left-color:#b06000}
.item .message{margin:.3rem 0;background:#fff}
pre.message.failing{color:#a50e0e}
.item .why,.reason{color:#444;margin:.2rem 0}
pre.rerun{background:#eef3fd}
details.raw summary{color:#555;font-size:.85rem}
.meta code{word-break:break-all}
`;

// Static: reads the page's data attributes, never report data, so nothing in a report can become code.
// The page opens with the "only unexpected" box as rendered; a `#r<n>` link (from the board, a result's own
// link, or the address bar) widens the filters to show that result if they hide it, and opens its details.
/** The page's one script, inline, allowed by its hash. */
export const SCRIPT = `
(() => {
  const all = (selector) => Array.from(document.querySelectorAll(selector));
  const filters = (kind) => all('input[data-filter="' + kind + '"]');
  const checked = (kind) => new Set(filters(kind).filter((i) => i.checked).map((i) => i.value));
  const attention = document.getElementById("attention");
  function apply() {
    const statuses = checked("status");
    const hosts = checked("host");
    const onlyAttention = attention.checked;
    let shown = 0;
    for (const el of all("[data-result]")) {
      const visible = statuses.has(el.dataset.status) && hosts.has(el.dataset.host) &&
        (!onlyAttention || el.dataset.verdict !== "expected");
      el.hidden = !visible;
      if (visible) shown++;
    }
    for (const el of all("[data-col]")) el.hidden = !hosts.has(el.dataset.col);
    for (const row of all("tr[data-row]")) {
      let any = false;
      for (const cell of row.querySelectorAll("td[data-status]")) {
        const on = statuses.has(cell.dataset.status) && (!onlyAttention || cell.dataset.verdict !== "expected");
        cell.classList.toggle("off", !on);
        if (on && !cell.hidden) any = true;
      }
      row.hidden = !any;
    }
    document.getElementById("shown").textContent = String(shown);
  }
  function showAll() {
    for (const input of all("input[data-filter]")) input.checked = true;
    attention.checked = false;
    apply();
  }
  function reveal(id) {
    const target = document.getElementById(id);
    if (!target || !target.hasAttribute("data-result")) return;
    if (target.hidden) {
      for (const input of filters("status")) if (input.value === target.dataset.status) input.checked = true;
      for (const input of filters("host")) if (input.value === target.dataset.host) input.checked = true;
      if (target.dataset.verdict === "expected") attention.checked = false;
      apply();
    }
    target.open = true;
    target.scrollIntoView({ block: "start" });
  }
  function fromHash() {
    let id = "";
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch {
      return;
    }
    if (id) reveal(id);
  }
  for (const input of all("input")) input.addEventListener("change", apply);
  document.getElementById("show-all").addEventListener("click", showAll);
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
    if (link) reveal(link.getAttribute("href").slice(1));
  });
  addEventListener("hashchange", fromHash);
  apply();
  fromHash();
})();
`;

/** A CSP source that allows exactly this inline text (a `<script>` or `<style>` element's content). */
function hashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The page's policy: its one script runs by its hash, so no other script (planted in a report value, say) could. */
export const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src ${
  hashSource(SCRIPT)
}; img-src data:`;
