/**
 * {@linkcode NativeDialogGate}: what a web host does with the browser's own dialogs (`alert()`, `confirm()`,
 * `prompt()`). A host whose consent for a download, a link or a sampling request is such a dialog (a YAML
 * host's `nativeDialogs:`) has it accepted, but only while the harness is servicing that consent: armed by
 * the click that makes the View ask for it, until the `confirmDialog` (or `checkLinkOpen`) that follows. A
 * `confirm()` that opens unannounced (the click gave no `consent` hint, as no upstream suite does) is held
 * open for a while instead, so the `confirmDialog` that may follow can still claim it; unclaimed, it is then
 * dismissed. Any other dialog, at any other time, is dismissed at once (as Playwright does when nobody
 * listens). Every dialog is recorded.
 * {@linkcode NativeConsents} is that service for one host: which consents are browser dialogs, the gate, and
 * the file a download consent lets through.
 *
 * @module
 */
import type { Dialog, Download, Page } from "playwright-core";
import type { CapabilityResult, DialogKind } from "../../src/protocol.ts";
import { readDownload } from "../../src/runner/browser_host.ts";
import { raceDelay } from "../../src/time.ts";

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

/** An unannounced `confirm()` held open for a consent request that may claim it. */
interface Held {
  readonly dialog: Dialog;
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
  readonly #holdMs: () => number;
  readonly #records: NativeDialogRecord[] = [];
  #armed: Armed | null = null;
  #held: Held | null = null;
  /** Waiting for the next dialog to be held ({@linkcode NativeDialogGate.nextHeld}). */
  #onHold: (() => void)[] = [];
  /** The last arming and what it got, kept after the dialog was answered until the consent is serviced. */
  #arming: { readonly consent: DialogKind; readonly accepted: Promise<NativeDialogRecord | null> } | null =
    null;

  /**
   * `log` receives one line per dialog (the host's console record); an unannounced `confirm()` is held open
   * `holdMs()` for a consent request to claim (0: dismissed at once).
   */
  constructor(log: (line: string) => void, holdMs: () => number = () => 0) {
    this.#log = log;
    this.#holdMs = holdMs;
  }

  /** Whether an unannounced `confirm()` is held open now. */
  get holding(): boolean {
    return this.#held !== null;
  }

  /** Resolves when the next unannounced `confirm()` is held (the page is blocked by it from then on). */
  nextHeld(): Promise<void> {
    if (this.#held !== null) return Promise.resolve();
    return new Promise((resolve) => this.#onHold.push(resolve));
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
    const held = this.#held;
    if (held !== null) {
      // The consent an unannounced confirm() was held for: it is this one.
      this.#held = null;
      clearTimeout(held.timer);
      void this.#answer(held.dialog, "after holding it");
    }
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

  /** Disarms, forgets the last arming and dismisses a held dialog (between tests). */
  reset(): void {
    this.disarm();
    this.#arming = null;
    this.#dismissHeld();
  }

  #dismissHeld(): void {
    const held = this.#held;
    this.#held = null;
    if (held === null) return;
    clearTimeout(held.timer);
    void this.#answer(held.dialog, "after holding it for a consent nobody claimed");
  }

  /**
   * Answers one dialog: accepted when armed (never a `beforeunload`); an unannounced `confirm()` held open
   * for a while (see {@linkcode NativeDialogGate.arm}); dismissed otherwise.
   */
  async handle(dialog: Dialog): Promise<void> {
    const holdMs = this.#holdMs();
    if (this.#armed === null && holdMs > 0 && this.#held === null && dialog.type() === "confirm") {
      this.#held = { dialog, timer: setTimeout(() => this.#dismissHeld(), holdMs) };
      const waiting = this.#onHold;
      this.#onHold = [];
      for (const resolve of waiting) resolve();
      return;
    }
    await this.#answer(dialog, "");
  }

  async #answer(dialog: Dialog, how: string): Promise<void> {
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
        JSON.stringify(record.message) + (how === "" ? "" : ` ${how}`),
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

/**
 * The consents of one host that are browser dialogs, serviced through a {@linkcode NativeDialogGate}.
 *
 * @example
 * ```ts ignore
 * const consents = new NativeConsents(["download"], (line) => console.log(line));
 * consents.listen(page);
 * consents.arm(page, "download", 20_000); // before the click that asks for the download
 * await consents.accept(page, "download", { waitMs: 10_000, product: "My host" }); // { ok, value: receipt }
 * ```
 */
export class NativeConsents {
  readonly #kinds: ReadonlySet<DialogKind>;
  readonly #gate: NativeDialogGate;
  /** The download a download consent starts, awaited from the click that asked for it. */
  #download: Promise<Download> | null = null;

  /**
   * `kinds`: the consents that are browser dialogs; `log` gets one line per dialog; an unannounced
   * `confirm()` is held open `holdMs()` for the consent request that may follow (only when there are `kinds`).
   */
  constructor(kinds: readonly DialogKind[], log: (line: string) => void, holdMs: () => number = () => 0) {
    this.#kinds = new Set(kinds);
    this.#gate = new NativeDialogGate(log, () => kinds.length > 0 ? holdMs() : 0);
  }

  /** Whether `consent` is a browser dialog on this host. */
  has(consent: DialogKind): boolean {
    return this.#kinds.has(consent);
  }

  /** Whether an unannounced `confirm()` is held open now, for a consent request to claim. */
  get holding(): boolean {
    return this.#gate.holding;
  }

  /** Resolves when the next unannounced `confirm()` is held open (the page is blocked until it is answered). */
  nextHeld(): Promise<void> {
    return this.#gate.nextHeld();
  }

  /** Answers every dialog `page` opens (listening means answering: unarmed, a dialog is dismissed). */
  listen(page: Page): void {
    page.on("dialog", (dialog) => void this.#gate.handle(dialog));
  }

  /** Arms the gate for `consent` for `ms` (and, for a download, starts waiting for the file). */
  arm(page: Page, consent: DialogKind, ms: number): Promise<NativeDialogRecord | null> {
    const accepted = this.#gate.arm(consent, ms);
    this.#download = consent === "download" ? page.waitForEvent("download", { timeout: ms + 5_000 }) : null;
    this.#download?.catch(() => {});
    return accepted;
  }

  /**
   * Services `consent`: the dialog the click accepted (or, when the click did not ask for it, the next within
   * `waitMs`), then, for a download, the file it let through. Disarmed and forgotten afterwards.
   */
  async accept(
    page: Page,
    consent: DialogKind,
    options: { readonly waitMs: number; readonly product: string },
  ): Promise<CapabilityResult> {
    const accepted = this.#gate.takeArming(consent) ?? this.arm(page, consent, options.waitMs);
    const raced = await raceDelay([accepted], options.waitMs);
    const record = raced === "late" ? null : raced;
    const download = this.#download;
    // Serviced: a later dialog is dismissed and a later request waits for its own.
    this.reset();
    if (record === null) {
      return { ok: false, error: `${options.product} opened no browser dialog for the ${consent} consent` };
    }
    if (consent !== "download" || download === null) return { ok: true };
    try {
      return { ok: true, value: await readDownload(await download) };
    } catch (error) {
      return {
        ok: false,
        error: `The ${consent} consent (${JSON.stringify(record.message)}) was accepted but no download ` +
          `started: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  /** Disarms the gate and forgets the arming and the awaited download (between tests). */
  reset(): void {
    this.#gate.reset();
    this.#download = null;
  }
}
