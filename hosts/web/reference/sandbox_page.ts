/**
 * The sandbox proxy page: the middle frame between the host page and the View, served on a
 * distinct origin with the View's CSP as an HTTP header. It creates the inner frame, announces itself with
 * `sandbox-proxy-ready`, writes the View's HTML on `sandbox-resource-ready`, and relays every other message both
 * ways, never forwarding the reserved `ui/notifications/sandbox-*` methods. The proxy's own broken variants
 * (`?variant=`): `drop-ping`, `log-breaks-channel`, and the frame layouts `opaque-view`,
 * `same-origin-proxy-opaque-view` (an opaque View) and `dangerous-view-sandbox` (escape tokens on the View).
 *
 * @module
 */
import type { VariantName } from "./variants.ts";

/**
 * How long the `log-breaks-channel` proxy ignores the View after relaying a log line: far longer than the gap
 * between a log line and the View's next message, far shorter than the suite's 3 s wait for the answer.
 */
export const LOG_STALL_MS = 1_500;

/** The inner frame's sandbox tokens: scripts and same-origin (a real origin for the View), forms; nothing else. */
export const INNER_SANDBOX = "allow-scripts allow-same-origin allow-forms";

/**
 * The inner tokens of the opaque-View layouts (the MCP Inspector's): no allow-same-origin, so the View's
 * origin is "null". More isolated than the spec requires, which is no violation.
 */
export const OPAQUE_INNER_SANDBOX = "allow-scripts allow-forms";

/** The variants whose proxy renders the View in an opaque-origin frame. */
export const OPAQUE_VIEW_VARIANTS: readonly VariantName[] = ["opaque-view", "same-origin-proxy-opaque-view"];

const PROXY_SCRIPT = `
(() => {
  const hostOrigin = document.referrer ? new URL(document.referrer).origin : null;
  const variant = new URLSearchParams(location.search).get("variant");
  // An opaque View renders through srcdoc: an opaque frame's document cannot be written from here.
  const opaque = ${JSON.stringify(OPAQUE_VIEW_VARIANTS)}.includes(variant);
  const inner = document.createElement("iframe");
  inner.setAttribute("sandbox", opaque ? ${JSON.stringify(OPAQUE_INNER_SANDBOX)} : ${
  JSON.stringify(INNER_SANDBOX)
});
  inner.style.cssText = "border:0;width:100%;height:100%;display:block";
  document.body.appendChild(inner);
  const dropPing = variant === "drop-ping";
  const logStalls = variant === "log-breaks-channel";
  let stalledUntil = 0;
  const reserved = (method) => typeof method === "string" && method.startsWith("ui/notifications/sandbox-");
  window.addEventListener("message", (event) => {
    const data = event.data;
    if (event.source === window.parent) {
      if (hostOrigin === null || event.origin !== hostOrigin) return;
      if (data && data.method === "ui/notifications/sandbox-resource-ready") {
        const params = data.params || {};
        if (typeof params.sandbox === "string") inner.setAttribute("sandbox", params.sandbox);
        if (typeof params.allow === "string") inner.setAttribute("allow", params.allow);
        if (opaque) {
          inner.srcdoc = String(params.html || "");
          return;
        }
        const doc = inner.contentDocument;
        doc.open();
        doc.write(String(params.html || ""));
        doc.close();
        return;
      }
      if (data && reserved(data.method)) return;
      inner.contentWindow && inner.contentWindow.postMessage(data, "*");
      return;
    }
    if (event.source === inner.contentWindow) {
      if (data && reserved(data.method)) return;
      if (dropPing && data && data.method === "ping") return;
      if (performance.now() < stalledUntil) return;
      window.parent.postMessage(data, hostOrigin || "*");
      if (logStalls && data && data.method === "notifications/message") {
        stalledUntil = performance.now() + ${LOG_STALL_MS};
      }
    }
  });
  window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} },
    hostOrigin || "*");
})();
`;

/** The proxy page's HTML. */
export function sandboxProxyHtml(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>sandbox proxy</title>` +
    `<style>html,body{margin:0;height:100%;overflow:hidden}</style></head>` +
    `<body><script>${PROXY_SCRIPT.replaceAll("</script", "<\\/script")}</script></body></html>`;
}
