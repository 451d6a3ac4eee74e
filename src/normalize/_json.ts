/**
 * Small helpers the per-dialect normalisers share: reading untyped JSON safely and building events with only
 * defined optional fields (the event types use exact optional properties).
 *
 * @module
 */
import type { DraftEvent } from "./events.ts";

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** Whether `value` is a plain JSON object. */
export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `value` when it is a string. */
export const str = (value: unknown): string | undefined => typeof value === "string" ? value : undefined;

/** `value` when it is a finite number, else 0. */
export const num = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) ? value : 0;

/** `value` when it is a finite number. */
export const optNum = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** Parses one line as a JSON object, or `null` when it is not one. */
export function parseObject(raw: string): Json | null {
  try {
    const value: unknown = JSON.parse(raw);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** An event with its `undefined` fields removed. */
export function event(draft: Record<string, unknown>): DraftEvent {
  // In place on the caller's fresh literal: cheaper than an entries/fromEntries copy on every event.
  for (const key in draft) if (draft[key] === undefined) delete draft[key];
  return draft as unknown as DraftEvent;
}

/** The `unparsed` event for a line that is not JSON. */
export function notJson(raw: string): DraftEvent {
  return { kind: "unparsed", why: "not_json", raw, synthetic: false };
}

/** The `unparsed` event for a JSON line of a kind the dialect does not know. */
export function unknownKind(raw: string): DraftEvent {
  return { kind: "unparsed", why: "unknown_kind", raw, synthetic: false };
}

/** The value after `flags` in argv (`-m M`, `--model M` or `--model=M`), or `undefined`. */
export function argvValue(argv: readonly string[], ...flags: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (flags.includes(arg)) return argv[i + 1];
    for (const flag of flags) {
      if (flag.startsWith("--") && arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
    }
  }
  return undefined;
}

/** The text of a message's content: a string, or the `text` blocks of a content array joined. */
export function contentText(content: unknown): string[] {
  if (typeof content === "string") return content === "" ? [] : [content];
  if (!Array.isArray(content)) return [];
  return content.filter(isObject).flatMap((block) =>
    block.type === "text" && typeof block.text === "string" ? [block.text] : []
  );
}
