/**
 * Running the suite by hand on a real host, with no Runner attached: when a test parks a request and nobody
 * polls, the View shows it as a question with answer buttons (upstream's "action card"). A person clicks the
 * trigger themselves, switches the theme, looks at the conversation, and answers; what a person cannot
 * observe from the page (the model's tool list, the host's DOM and console, local hooks) answers
 * `unsupported`, which SKIPs those tests.
 *
 * @module
 */
import type { CapabilityRequest, CapabilityResult } from "../../../src/protocol.ts";

/** The part of the engine a person's answers go through. */
export interface AnswerTarget {
  pending(): { request: CapabilityRequest; seq: number } | null;
  runnerAttached(): boolean;
  resolve(result: CapabilityResult, seq?: number): void;
}

/** One answer button. */
export interface Answer {
  label: string;
  result: CapabilityResult;
}

/** What to ask a person for `request`, or `null` when only a Runner can answer it (→ unsupported). */
export function questionFor(request: CapabilityRequest): { prompt: string; answers: Answer[] } | null {
  const yes = (label: string, value?: unknown): Answer => ({
    label,
    result: value === undefined ? { ok: true } : { ok: true, value },
  });
  const no = (label: string, error: string): Answer => ({ label, result: { ok: false, error } });
  switch (request.kind) {
    case "clickTrigger":
      return { prompt: "Click the Trigger button above.", answers: [] };
    case "toggleTheme":
      return {
        prompt: `Switch the host (or your system) to the ${request.to} theme, then press Done.`,
        answers: [yes("Done"), no("I can't", "The person could not switch the theme")],
      };
    case "confirmDialog":
    case "checkLinkOpen": {
      const what = request.kind === "checkLinkOpen" || request.dialog === "link"
        ? `Did a new tab open at ${
          request.kind === "checkLinkOpen" ? request.url : request.url ?? "the link"
        }?`
        : `Accept the host's ${request.dialog} dialog. Did it work?`;
      return {
        prompt: what,
        answers: [
          yes("Yes"),
          no("No", `The person saw no ${request.kind === "confirmDialog" ? request.dialog : "link"}`),
        ],
      };
    }
    case "conversationContains":
      return {
        prompt: `Wait for the reply, then: does the conversation show "${request.marker}"?`,
        // `ok` is the answer (upstream's reading): a "No" is a miss, not a failure.
        answers: [yes("Yes", { found: true }), {
          label: "No",
          result: { ok: false, value: { found: false } },
        }],
      };
    default:
      return null;
  }
}

/** The card in the View that asks a person when no Runner is attached. */
export class ByHandCard {
  readonly #target: AnswerTarget;
  readonly #card: HTMLElement;
  readonly #prompt: HTMLParagraphElement;
  readonly #buttons: HTMLElement;
  #shownSeq: number | null = null;

  constructor(doc: Document, target: AnswerTarget) {
    this.#target = target;
    this.#card = doc.createElement("section");
    this.#card.dataset.testid = "conformance-action";
    this.#card.style.cssText = "display:none;border:1px solid #1a73e8;padding:6px;margin:6px 0";
    this.#prompt = doc.createElement("p");
    this.#buttons = doc.createElement("div");
    this.#card.append(this.#prompt, this.#buttons);
    doc.body.append(this.#card);
  }

  /** Shows, replaces or hides the card; call it on every engine change and on a timer. */
  update(): void {
    const pending = this.#target.runnerAttached() ? null : this.#target.pending();
    if (pending === null) {
      this.#card.style.display = "none";
      this.#shownSeq = null;
      return;
    }
    if (pending.seq === this.#shownSeq) return;
    const question = questionFor(pending.request);
    if (question === null) {
      this.#target.resolve(
        pending.request.kind === "resetIsolation" ? { ok: true } : { ok: false, unsupported: true },
        pending.seq,
      );
      return;
    }
    this.#shownSeq = pending.seq;
    this.#prompt.textContent = question.prompt;
    this.#buttons.replaceChildren(
      ...[...question.answers, { label: "Skip", result: { ok: false, unsupported: true } }].map((answer) => {
        const button = this.#card.ownerDocument.createElement("button");
        button.type = "button";
        button.textContent = answer.label;
        button.addEventListener("click", () => this.#target.resolve(answer.result, pending.seq));
        return button;
      }),
    );
    this.#card.style.display = "block";
  }

  /** The person clicked the trigger: that answers a pending `clickTrigger`. */
  triggerClicked(): void {
    const pending = this.#target.pending();
    if (pending?.request.kind === "clickTrigger" && !this.#target.runnerAttached()) {
      this.#target.resolve({ ok: true }, pending.seq);
    }
  }
}
