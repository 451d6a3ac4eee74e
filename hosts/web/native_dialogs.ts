/**
 * {@linkcode NativeDialogGate}: what a web host does with the browser's own dialogs (`alert()`, `confirm()`,
 * `prompt()`). A host whose consent for a download, a link or a sampling request is such a dialog (a YAML
 * host's `nativeDialogs:`) has it accepted, but only while the harness is servicing that consent: armed by
 * the click that makes the View ask for it, until the `confirmDialog` (or `checkLinkOpen`) that follows. Any
 * other dialog, at any other time, is dismissed (as Playwright does when nobody listens) and recorded.
 *
 * @module
 */
import type { Dialog } from "playwright-core";
import type { DialogKind } from "../../src/protocol.ts";

/** One browser dialog the page opened, and what was done with it. */
export interface NativeDialogRecord {
  /** `alert`, `confirm`, `prompt` or `beforeunload`. */
  readonly type: string;
  readonly message: string;
  /** Whether it was accepted (armed for a consent) or dismissed. */
  readonly accepted: boolean;
  /** The consent it was accepted for; `null` when dismissed. */
  readonly consent: DialogKind | null;
}

interface Armed {
  readonly consent: DialogKind;
  readonly resolve: (record: NativeDialogRecord | null) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * Accepts one browser dialog while armed for a consent; dismisses and records every other one.
 *
 * @example
 * ```ts ignore
 * const gate = new NativeDialogGate((line) => console.log(line));
 * page.on("dialog", (dialog) => void gate.handle(dialog));
 * const accepted = gate.arm("download", 10_000); // then click what asks for the download
 * (await accepted)?.message; // the confirm()'s text, or undefined when none opened in time
 * ```
 */
export class NativeDialogGate {
  readonly #log: (line: string) => void;
  readonly #records: NativeDialogRecord[] = [];
  #armed: Armed | null = null;
  /** The last arming and what it got, kept after the dialog was answered until the consent is serviced. */
  #arming: { readonly consent: DialogKind; readonly accepted: Promise<NativeDialogRecord | null> } | null =
    null;

  /** `log` receives one line per dialog (the host's console record). */
  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** Every dialog seen so far. */
  get records(): readonly NativeDialogRecord[] {
    return this.#records;
  }

  /** The consent the gate is armed for, if any. */
  get armedFor(): DialogKind | null {
    return this.#armed?.consent ?? null;
  }

  /**
   * Accepts the next dialog within `ms` as the `consent`; resolves with it, or `null` when none opened in time
   * (or the gate was disarmed). Re-arming replaces an earlier arming.
   */
  arm(consent: DialogKind, ms: number): Promise<NativeDialogRecord | null> {
    this.disarm();
    const accepted = new Promise<NativeDialogRecord | null>((resolve) => {
      const timer = setTimeout(() => this.disarm(), ms);
      this.#armed = { consent, resolve, timer };
    });
    this.#arming = { consent, accepted };
    return accepted;
  }

  /**
   * What the last arming got when it was for `consent` (the dialog it accepted, or `null`), and forgets it;
   * `null` when the gate was not armed for `consent` since.
   */
  takeArming(consent: DialogKind): Promise<NativeDialogRecord | null> | null {
    const arming = this.#arming;
    if (arming?.consent !== consent) return null;
    this.#arming = null;
    return arming.accepted;
  }

  /** Stops accepting: a later dialog is dismissed. */
  disarm(): void {
    const armed = this.#armed;
    this.#armed = null;
    if (armed === null) return;
    clearTimeout(armed.timer);
    armed.resolve(null);
  }

  /** Disarms and forgets the last arming (between tests). */
  reset(): void {
    this.disarm();
    this.#arming = null;
  }

  /** Answers one dialog: accepted when armed (never a `beforeunload`), dismissed otherwise. */
  async handle(dialog: Dialog): Promise<void> {
    const armed = dialog.type() === "beforeunload" ? null : this.#armed;
    const record: NativeDialogRecord = {
      type: dialog.type(),
      message: dialog.message(),
      accepted: armed !== null,
      consent: armed?.consent ?? null,
    };
    this.#records.push(record);
    this.#log(
      `dialog: ${armed ? `accepted as the ${armed.consent} consent` : "dismissed"} ${record.type} ` +
        JSON.stringify(record.message),
    );
    if (armed !== null) {
      // One dialog per arming: a second one is not the consent the harness is servicing.
      this.#armed = null;
      clearTimeout(armed.timer);
    }
    await (armed ? dialog.accept() : dialog.dismiss()).catch(() => {});
    armed?.resolve(record);
  }
}
