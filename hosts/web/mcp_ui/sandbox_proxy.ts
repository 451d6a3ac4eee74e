/**
 * The `mcp-ui` host's sandbox proxy page. `@mcp-ui/client` 7.1.1 ships none (its package holds only `dist/`),
 * so this is the one its Client SDK Walkthrough has a host create (step 3, `public/sandbox_proxy.html`), with
 * the same behaviour: it announces itself to its parent with `ui/notifications/sandbox-proxy-ready`, and on
 * `ui/notifications/sandbox-resource-ready` replaces its own document with the View's HTML
 * (`document.open/write/close`). So the View runs in the proxy frame itself, one frame deep; the page sets
 * no Content-Security-Policy, and the listener serving it sends none (the walkthrough serves it as a static
 * file).
 *
 * @module
 */

const PROXY_SCRIPT = `
window.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || typeof data !== "object") return;
  if (data.method === "ui/notifications/sandbox-resource-ready") {
    const { html } = data.params || {};
    if (html) {
      document.open();
      document.write(html);
      document.close();
    }
  }
});
window.parent.postMessage({ method: "ui/notifications/sandbox-proxy-ready", params: {} }, "*");
`;

/** The proxy page's title, as in the walkthrough: a frame still titled so never received the View. */
export const SANDBOX_PROXY_TITLE = "Sandbox Proxy";

/** The path the proxy is served under, as in the walkthrough. */
export const SANDBOX_PROXY_PATH = "/sandbox_proxy.html";

/** The proxy page's HTML. */
export function sandboxProxyHtml(): string {
  return `<!DOCTYPE html><html><head><meta charset="UTF-8"><title>${SANDBOX_PROXY_TITLE}</title>` +
    `<style>html, body { margin: 0; padding: 0; width: 100%; height: 100%; }</style></head>` +
    `<body><script>${PROXY_SCRIPT}</script></body></html>`;
}
