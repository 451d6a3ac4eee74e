/**
 * The View's DOM: the trigger button the Runner clicks (a real user activation), the "back to inline" button,
 * a Run button for a person driving the suite by hand, and a live list of results.
 *
 * @module
 */
import { RESET_INLINE_TEST_ID, type SuitePoll, TRIGGER_TEST_ID } from "../../../src/protocol.ts";
import type { Trigger } from "./engine.ts";

/** The DOM trigger: `arm(fn)` makes the next click on the button run `fn` inside the click handler. */
export class ButtonTrigger implements Trigger {
  readonly #button: HTMLButtonElement;
  #armed: (() => void) | null = null;

  constructor(button: HTMLButtonElement) {
    this.#button = button;
    button.addEventListener("click", () => {
      const run = this.#armed;
      this.#armed = null;
      this.#button.dataset.armed = "false";
      run?.();
    });
  }

  arm<T>(fn: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#button.dataset.armed = "true";
      this.#armed = () => {
        try {
          Promise.resolve(fn()).then(resolve, reject);
        } catch (error) {
          reject(error);
        }
      };
    });
  }

  disarm(): void {
    this.#armed = null;
    this.#button.dataset.armed = "false";
  }
}

/** The elements `mountView` creates. */
export interface ViewElements {
  trigger: HTMLButtonElement;
  resetInline: HTMLButtonElement;
  run: HTMLButtonElement;
  render(poll: SuitePoll): void;
}

/** Builds the View's DOM into `doc.body`. */
export function mountView(doc: Document): ViewElements {
  const style = doc.createElement("style");
  style.textContent = `body{font:13px system-ui,sans-serif;margin:8px;color:CanvasText;background:Canvas}
button{margin:0 6px 6px 0;padding:4px 10px}button[data-armed=true]{outline:2px solid #1a73e8}
ol{margin:4px 0;padding-left:20px}li.PASS{color:#188038}li.FAIL,li.TIMEOUT{color:#d93025}li.SKIP{color:#80868b}`;
  doc.head.append(style);
  const title = doc.createElement("h1");
  title.style.fontSize = "15px";
  title.textContent = "MCP Apps conformance";
  const trigger = button(doc, "Trigger", TRIGGER_TEST_ID);
  const resetInline = button(doc, "Back to inline", RESET_INLINE_TEST_ID);
  const run = button(doc, "Run all", "conformance-run");
  const status = doc.createElement("p");
  status.dataset.testid = "conformance-status";
  const list = doc.createElement("ol");
  doc.body.append(title, trigger, resetInline, run, status, list);
  return {
    trigger,
    resetInline,
    run,
    render(poll) {
      if (poll.state === "idle") {
        status.textContent = "Idle: press Run all, or let a Runner start the suite.";
        return;
      }
      const results = poll.results;
      status.textContent = poll.state === "done"
        ? `Done: ${results.filter((r) => r.status === "PASS").length}/${results.length} passed.`
        : `Running ${poll.runningId}${poll.request ? ` (waiting for the host: ${poll.request.kind})` : ""}…`;
      while (list.children.length > results.length) list.lastElementChild?.remove();
      for (const [index, result] of results.entries()) {
        const item = list.children[index] ?? list.appendChild(doc.createElement("li"));
        item.className = result.status;
        item.textContent = `${result.status} ${result.id}${result.message ? `: ${result.message}` : ""}`;
      }
    },
  };
}

function button(doc: Document, label: string, testId: string): HTMLButtonElement {
  const element = doc.createElement("button");
  element.type = "button";
  element.textContent = label;
  element.dataset.testid = testId;
  return element;
}
