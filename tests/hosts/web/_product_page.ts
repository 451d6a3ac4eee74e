/**
 * A local stand-in for a chat product's DOM, served on loopback, for testing the product hosts' own logic
 * (selectors, banner dismissal, tool approval, draft commit, link consent, pacing) without contacting any
 * product. It mimics only the parts the host driver touches. The "app" is a page on `localhost` (another
 * origin than the product's `127.0.0.1`, so a real out-of-process frame) carrying a minimal suite channel and
 * the trigger button; its click sends a draft to the product page, which handles it the way `flavour` says.
 */

/** How the stand-in behaves: which product it mimics. */
export interface ProductPageOptions {
  readonly flavour: "chatgpt" | "claude" | "mistral";
  readonly signedIn: boolean;
}

/** A running stand-in. */
export interface ProductPage extends AsyncDisposable {
  readonly url: string;
  /** A URL the app's link button opens (through the product's consent, for Mistral). */
  readonly linkTarget: string;
  close(): Promise<void>;
}

const APP = `<!doctype html><meta charset="utf-8"><body>
<button data-testid="conformance-trigger" onclick="parent.postMessage({ draft: 'draft-marker-42' }, '*')">go</button>
<button id="link" onclick="parent.postMessage({ link: location.origin + '/target' }, '*')">link</button>
<script>
  globalThis.__mcpConformance = {
    listTests: () => [], start() {}, poll: () => ({ state: "idle" }), resolve() {},
  };
</script></body>`;

function productHtml(options: ProductPageOptions, appUrl: string): string {
  const chatgpt = options.flavour === "chatgpt";
  const composer = chatgpt
    ? `<textarea id="prompt-textarea"></textarea>`
    : `<div contenteditable="true" id="composer" style="min-height:20px;border:1px solid"></div>`;
  const send = options.flavour === "claude" ? "Send message" : "Send";
  const signedIn = options.signedIn
    ? (chatgpt ? `<button data-testid="accounts-profile-button">me</button>` : "")
    : "";
  const banner = options.flavour === "claude"
    ? "Accept All Cookies"
    : options.flavour === "mistral"
    ? "Accept all"
    : "Got it";
  const approve = options.flavour === "claude"
    ? "Allow once"
    : options.flavour === "chatgpt"
    ? "Confirm"
    : "";
  return `<!doctype html><meta charset="utf-8"><body>
<div id="banner" style="position:fixed;inset:0;background:#eee;z-index:9"><button id="accept">${banner}</button></div>
${signedIn}
<ol id="turns"></ol>
${options.signedIn || chatgpt ? composer : "<a href='/login'>Log in</a>"}
<button aria-label="${send}" id="send">send</button>
<div id="slot"></div>
<script>
  window.__sent = [];
  const flavour = ${JSON.stringify(options.flavour)};
  const turns = document.getElementById("turns");
  const say = (role, text) => {
    const li = document.createElement("li");
    li.dataset.messageAuthorRole = role;
    li.textContent = text;
    turns.append(li);
  };
  document.getElementById("accept").onclick = () => document.getElementById("banner").remove();
  const box = document.getElementById("prompt-textarea") ?? document.getElementById("composer");
  const text = () => box ? (box.value ?? box.textContent) : "";
  const clear = () => { if (!box) return; if ("value" in box) box.value = ""; else box.textContent = ""; };
  const render = () => {
    const frame = document.createElement("iframe");
    frame.src = ${JSON.stringify(appUrl)};
    frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
    document.getElementById("slot").append(frame);
  };
  box?.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    window.__sent.push(text());
    say("user", text());
    clear();
    const label = ${JSON.stringify(approve)};
    if (!label) return render();
    const ok = document.createElement("button");
    ok.textContent = label;
    ok.onclick = () => { ok.remove(); render(); };
    document.body.append(ok);
  });
  document.getElementById("send").onclick = () => { if (text().trim()) { say("user", text()); clear(); } };
  addEventListener("message", (event) => {
    if (event.data?.draft) {
      if (flavour === "chatgpt") return say("user", event.data.draft);
      const place = () => setTimeout(() => { box.textContent = event.data.draft; }, 300);
      if (flavour === "mistral") return place();
      const replace = document.createElement("a");
      replace.href = "#";
      replace.textContent = "Replace current text?";
      replace.onclick = (e) => { e.preventDefault(); replace.remove(); place(); };
      document.body.append(replace);
    }
    if (event.data?.link) {
      const dialog = document.createElement("div");
      dialog.setAttribute("role", "dialog");
      const ok = document.createElement("button");
      ok.textContent = "Confirm";
      ok.onclick = () => { dialog.remove(); window.open(event.data.link, "_blank"); };
      dialog.append(ok);
      document.body.append(dialog);
    }
  });
</script></body>`;
}

/** Serves the stand-in on 127.0.0.1 (the product) and its app on localhost (another origin). */
export function startProductPage(options: ProductPageOptions): ProductPage {
  let port = 0;
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (
      request,
    ): Response => {
      const { pathname } = new URL(request.url);
      const html: string = pathname === "/app"
        ? APP
        : pathname === "/target"
        ? "<p>target</p>"
        : productHtml(options, `http://localhost:${port}/app`);
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  );
  port = server.addr.port;
  const close = () => server.shutdown();
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    linkTarget: `http://localhost:${server.addr.port}/target`,
    close,
    [Symbol.asyncDispose]: close,
  };
}
