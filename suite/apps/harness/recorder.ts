/**
 * Captures what the host sends, from before `connect()`: the raw JSON-RPC traffic on `window` (for
 * "nothing before initialized"), and every one-shot notification through the `App`'s event listeners (the
 * host sends tool-input and tool-result once; a listener added later would miss them).
 *
 * @module
 */
import type { App, AppEventMap } from "@modelcontextprotocol/ext-apps";
import { suiteDeadline } from "./timing.ts";

/** One notification as it arrived. `at` is `performance.now()`. */
export interface Recorded<T> {
  at: number;
  params: T;
}

/** One raw JSON-RPC message from the parent window. */
export interface RawMessage {
  at: number;
  method?: string;
  id?: string | number;
  hasResult: boolean;
  data: Record<string, unknown>;
}

/** The notification events the recorder keeps. */
export const RECORDED_EVENTS = [
  "toolinput",
  "toolinputpartial",
  "toolresult",
  "toolcancelled",
  "hostcontextchanged",
] as const satisfies readonly (keyof AppEventMap)[];

type RecordedEvent = typeof RECORDED_EVENTS[number];

/** The recorder; create it and call `listenRaw`/`attach` before `app.connect()`. */
export class Recorder {
  readonly raw: RawMessage[] = [];
  readonly events: { [K in RecordedEvent]: Recorded<AppEventMap[K]>[] } = {
    toolinput: [],
    toolinputpartial: [],
    toolresult: [],
    toolcancelled: [],
    hostcontextchanged: [],
  };
  /** When the View sent `ui/notifications/initialized`, or `undefined` before that. */
  initializedSentAt: number | undefined;
  readonly #waiters = new Set<() => void>();

  /** Records every JSON-RPC message the parent window posts to `target`. */
  listenRaw(target: Window, parent: MessageEventSource | null): void {
    target.addEventListener("message", (event: MessageEvent) => {
      if (parent !== null && event.source !== parent) return;
      const data = event.data as unknown;
      if (typeof data !== "object" || data === null || (data as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
        return;
      }
      const record = data as Record<string, unknown>;
      const message: RawMessage = { at: performance.now(), hasResult: "result" in record, data: record };
      if (typeof record.method === "string") message.method = record.method;
      if (typeof record.id === "string" || typeof record.id === "number") message.id = record.id;
      this.raw.push(message);
    });
  }

  /** Subscribes to every recorded `App` event. */
  attach(app: App): void {
    for (const name of RECORDED_EVENTS) {
      app.addEventListener(name, (params: AppEventMap[typeof name]) => {
        (this.events[name] as Recorded<unknown>[]).push({ at: performance.now(), params });
        for (const wake of [...this.#waiters]) wake();
      });
    }
  }

  /**
   * Resolves with the first recorded `name` event at or after `since` that `accept` takes, or `undefined` after
   * `timeoutMs` (scaled by the run's timeout multiplier, suite/apps/harness/timing.ts).
   */
  next<K extends RecordedEvent>(
    name: K,
    options: { since?: number; timeoutMs: number; accept?: (params: AppEventMap[K]) => boolean },
  ): Promise<Recorded<AppEventMap[K]> | undefined> {
    const find = () =>
      (this.events[name] as Recorded<AppEventMap[K]>[]).find((entry) =>
        entry.at >= (options.since ?? 0) && (options.accept?.(entry.params) ?? true)
      );
    const found = find();
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const done = (value: Recorded<AppEventMap[K]> | undefined) => {
        this.#waiters.delete(wake);
        clearTimeout(timer);
        resolve(value);
      };
      const wake = () => {
        const hit = find();
        if (hit) done(hit);
      };
      const timer = setTimeout(() => done(undefined), suiteDeadline(options.timeoutMs));
      this.#waiters.add(wake);
    });
  }
}
