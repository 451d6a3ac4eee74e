/**
 * The reference host page's native confirmations: a DOM dialog the Runner accepts with a real click
 * (`confirmDialog`), for downloads and sampling requests.
 *
 * @module
 */

/** The `data-testid` of a dialog's accept button, by dialog kind. */
export const DIALOG_ACCEPT_TEST_IDS = {
  download: "host-confirm-download",
  sampling: "host-confirm-sampling",
} as const;

/**
 * Shows a dialog and resolves `true` when the person (or the Runner) accepts, `false` on cancel or after
 * `timeoutMs`. The dialog floats over the page, or sits in `within` (the asking View's own panel) when given:
 * there it waits, like a chat thread's consent card, as long as the panel stays (`timeoutMs` is not used).
 */
export function confirmWithDialog(
  kind: keyof typeof DIALOG_ACCEPT_TEST_IDS,
  text: string,
  timeoutMs = 60_000,
  within?: HTMLElement,
): Promise<boolean> {
  const dialog = document.createElement("div");
  dialog.setAttribute("role", "dialog");
  dialog.dataset.dialog = kind;
  dialog.style.cssText = (within ? "margin:4px 0;" : "position:fixed;top:16px;right:16px;z-index:10;") +
    "padding:12px;background:Canvas;color:CanvasText;border:1px solid GrayText";
  const message = document.createElement("p");
  message.textContent = text;
  const accept = document.createElement("button");
  accept.textContent = kind === "download" ? "Download" : "Allow";
  accept.dataset.testid = DIALOG_ACCEPT_TEST_IDS[kind];
  const cancel = document.createElement("button");
  cancel.textContent = "Cancel";
  dialog.append(message, accept, cancel);
  (within ?? document.body).append(dialog);
  return new Promise((resolve) => {
    const timer = within ? undefined : setTimeout(() => done(false), timeoutMs);
    accept.addEventListener("click", () => done(true));
    cancel.addEventListener("click", () => done(false));
    function done(accepted: boolean) {
      clearTimeout(timer);
      dialog.remove();
      resolve(accepted);
    }
  });
}

/** The file name a download gets: the last URI segment, without path tricks or control characters. */
export function safeFileName(uri: string): string {
  const last = uri.split(/[/\\]/).filter(Boolean).at(-1) ?? "download";
  const cleaned = [...decodeURIComponentSafe(last)]
    .map((char) => char.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(char) ? "_" : char)
    .join("")
    .replace(/^\.+/, "");
  return cleaned || "download";
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
