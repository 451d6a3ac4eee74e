/**
 * A chat surface on the reference host page, so it can be driven the way a real chat product is: a composer
 * (enabled once the host is connected; a prompt that names a launcher renders the app), the conversation as
 * DOM, a theme setting (System / Light / Dark), and the host's own "Close app" and "Cancel tool" buttons (a
 * YAML host's `teardown:` and `cancel:` steps press them). A web host described in YAML drives the reference
 * host through these alone; the built-in `reference` host keeps using its hooks, and its behaviour does not
 * change: the surface adds no turns of its own, and the theme setting stays on "System" (the OS scheme) unless
 * someone picks another.
 *
 * The theme setting works like a product's: the host page reads the theme from
 * `matchMedia("(prefers-color-scheme: dark)")`, so the setting answers that one query (and its change
 * events) with the chosen scheme. The script runs before the host page's bundle for that reason.
 *
 * @module
 */

/** Element ids and the composer's launcher pattern, for YAML descriptions and tests. */
export const CHAT_SURFACE = {
  composer: "#prompt",
  /** Present once the host page is connected (the composer is enabled then). */
  ready: "#prompt:enabled",
  send: "#send",
  conversation: "#conversation li",
  /** The host's own controls: close the View (`ui/resource-teardown`), cancel the launching tool call. */
  close: "#close-app",
  cancel: "#cancel-tool",
  themeChoice: (to: "system" | "light" | "dark") => `[data-theme-choice="${to}"]`,
} as const;

/**
 * A View's own panel on a page served with `panels: true`: each rendered View sits in one, its controls above
 * its frame and its consent dialogs between them. The selectors match every panel's control, the first on the
 * page belonging to the oldest View still there; a YAML step says `ofView: true` to press the one of the View
 * under test.
 */
export const VIEW_PANEL = {
  panel: "section[data-view-panel]",
  close: "role=button[name='Close app']",
  cancel: "role=button[name='Cancel tool']",
  /** The accept buttons' labels of the consent dialogs (as `dialogs:` labels name them). */
  accept: { download: "Download", sampling: "Allow" },
} as const;

// The composer and the theme setting sit above the app slot, like a product's header: the View below them
// grows as the suite reports, and a control below it would move under a click.
const APP_CONTROLS = `<p id="app-controls" role="group" aria-label="App">` +
  `<button id="close-app" type="button">Close app</button> ` +
  `<button id="cancel-tool" type="button">Cancel tool</button></p>`;

const controls = (appControls: boolean) =>
  `<section id="chat" aria-label="Chat" style="margin-bottom:12px;max-width:720px">` +
  `<form id="composer"><input id="prompt" aria-label="Message" autocomplete="off" disabled style="width:60%">` +
  ` <button id="send" type="submit">Send</button></form>` +
  `<p id="theme" role="group" aria-label="Theme">Theme: ` +
  `<button type="button" data-theme-choice="system">System</button> ` +
  `<button type="button" data-theme-choice="light">Light</button> ` +
  `<button type="button" data-theme-choice="dark">Dark</button></p>` +
  `${appControls ? APP_CONTROLS : ""}</section>`;

const CONVERSATION = `<ol id="conversation" aria-label="Conversation" style="max-width:720px"></ol>`;

const SCRIPT = `(() => {
  const query = "(prefers-color-scheme: dark)";
  const native = window.matchMedia.bind(window);
  const os = native(query);
  const listeners = new Set();
  let choice = "system";
  const matches = () => choice === "system" ? os.matches : choice === "dark";
  let last = matches();
  const notify = () => {
    const now = matches();
    if (now === last) return;
    last = now;
    for (const listener of [...listeners]) listener.call(setting, { matches: now, media: query });
  };
  os.addEventListener("change", notify);
  const setting = {
    media: query,
    onchange: null,
    get matches() { return matches(); },
    addEventListener(type, listener) { if (type === "change") listeners.add(listener); },
    removeEventListener(type, listener) { if (type === "change") listeners.delete(listener); },
    addListener(listener) { listeners.add(listener); },
    removeListener(listener) { listeners.delete(listener); },
    dispatchEvent() { return true; },
  };
  window.matchMedia = (text) => String(text).replace(/\\s+/g, " ").trim() === query ? setting : native(text);
  const choose = (value) => {
    choice = value;
    for (const button of document.querySelectorAll("[data-theme-choice]")) {
      button.setAttribute("aria-pressed", String(button.dataset.themeChoice === value));
    }
    notify();
  };
  addEventListener("DOMContentLoaded", () => {
    for (const button of document.querySelectorAll("[data-theme-choice]")) {
      button.addEventListener("click", () => choose(button.dataset.themeChoice));
    }
    choose("system");
    const prompt = document.getElementById("prompt");
    document.getElementById("composer").addEventListener("submit", (event) => {
      event.preventDefault();
      const launcher = /run_conformance(?:_nocsp|_precedence)?/.exec(prompt.value);
      prompt.value = "";
      if (launcher === null || !globalThis.__referenceHost?.ready) return;
      globalThis.__referenceHost.launch(launcher[0]).catch((error) => console.error(String(error)));
    });
    const host = () => globalThis.__referenceHost?.ready ? globalThis.__referenceHost : null;
    // Absent on a page with a panel per View: each panel has its own (host_page.ts).
    document.getElementById("close-app")?.addEventListener("click", () => {
      host()?.teardown("closed by the user").catch((error) => console.error(String(error)));
    });
    document.getElementById("cancel-tool")?.addEventListener("click", () => {
      host()?.cancelTool("cancelled by the user").catch((error) => console.error(String(error)));
    });
    const list = document.getElementById("conversation");
    let shown = 0;
    setInterval(() => {
      if (prompt.disabled && globalThis.__referenceHost?.ready) prompt.disabled = false;
      const turns = globalThis.__referenceHost?.conversation ?? [];
      if (turns.length < shown) { list.replaceChildren(); shown = 0; }
      for (; shown < turns.length; shown++) {
        const item = document.createElement("li");
        item.dataset.role = turns[shown].role;
        item.textContent = turns[shown].text;
        list.append(item);
      }
    }, 100);
  });
})();`;

/**
 * The surface around the host page's app slot: controls above it, the conversation below, then the script.
 * Without `appControls`, the page-wide "Close app" and "Cancel tool" buttons are left out (a page whose Views
 * each have their own).
 */
export function chatSurfaceHtml(appSlot: string, options: { readonly appControls?: boolean } = {}): string {
  return `${controls(options.appControls ?? true)}${appSlot}${CONVERSATION}<script>${
    SCRIPT.replaceAll("</script", "<\\/script")
  }</script>`;
}
