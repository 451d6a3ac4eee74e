/**
 * A web host's own visible log or monitor pane (a YAML host's `log:`): where a host that shows its messages in
 * its page logs, besides the browser console. `ChatHost.readConsole` searches its lines; every matched line,
 * from the pane or the console, is redacted and capped the same way.
 *
 * @module
 */
import type { Page } from "playwright-core";
import type { CapabilityResult, ConsoleMatch } from "../../src/protocol.ts";
import { redact } from "../../src/report/redact.ts";

/** A host's visible log or monitor pane, one of the places a host logs (`readConsole` reads it). */
export interface LogPane {
  /** The pane. */
  readonly selector: string;
  /** Each entry inside the pane, its text joined into one line; `null`: each text line of the pane. */
  readonly entry: string | null;
}

/** The longest line a `readConsole` answer carries: a log-pane entry may show a whole HTML resource. */
const LINE_MAX = 100_000;

/**
 * The lines of a host's log pane: one per entry (whitespace collapsed), or one per text line.
 *
 * @example
 * ```ts ignore
 * const lines = await logPaneLines(page, { selector: "#monitor", entry: ".message" });
 * ```
 */
export async function logPaneLines(page: Page, log: LogPane): Promise<string[]> {
  const pane = page.locator(log.selector).first();
  if (await pane.count() === 0) return [];
  const texts = log.entry === null
    ? (await pane.innerText().catch(() => "")).split("\n")
    : await pane.locator(log.entry).allInnerTexts().catch(() => []);
  return texts.map((text) => text.replace(/\s+/g, " ").trim()).filter((text) => text !== "");
}

/**
 * A `readConsole` answer with its line redacted and capped, and its source named.
 *
 * @example
 * ```ts
 * import { redactedMatch } from "./log_pane.ts";
 * redactedMatch({ ok: true, value: { matched: true, line: "CSP for ui://x/y" } }, "log");
 * // { ok: true, value: { matched: true, line: "CSP for ui://x/y", source: "log" } }
 * ```
 */
export function redactedMatch(
  result: CapabilityResult,
  source: "console" | "log" = "console",
): CapabilityResult {
  const value = result.value as ConsoleMatch | undefined;
  if (value?.line === undefined) return result;
  const line = redact(value.line);
  return {
    ...result,
    value: {
      ...value,
      line: line.length > LINE_MAX ? `${line.slice(0, LINE_MAX)}…` : line,
      source,
    } satisfies ConsoleMatch,
  };
}
