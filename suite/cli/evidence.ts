/**
 * No PASS without evidence: every CLI tier passes through {@linkcode passed}, which puts what the test observed
 * in the outcome's `details.observed` (the requests the mock served, the tool call and its result, the marker
 * file, the refusal sent back to the model, the argv that carried a flag). A PASS that would name nothing is a
 * harness fault, not a verdict. The MCP Apps side keeps the same convention.
 *
 * @module
 */
import type { Observation } from "../../src/exec/observation.ts";
import { type Outcome, pass } from "../../src/outcome.ts";

/** What a PASS observed: a non-empty record of facts. */
export type Observed = Readonly<Record<string, unknown>>;

/**
 * A PASS naming what it observed, with `details` beside it. Throws `RangeError` when `observed` is empty: the
 * tier's run then reports ERROR, never a PASS that rests on nothing.
 *
 * @example
 * ```ts
 * import { passed } from "./evidence.ts";
 * passed({ mockRequests: 2 }, { exitCode: 0 }).details; // { exitCode: 0, observed: { mockRequests: 2 } }
 * ```
 */
export function passed(observed: Observed, details: Record<string, unknown> = {}): Outcome {
  if (Object.keys(observed).length === 0) throw new RangeError("a PASS must name what it observed");
  return pass({ ...details, observed });
}

/** What a run's stream showed: its event kinds, how it ended, its exit code and the start of its text. */
export function streamSeen(observation: Observation): Observed {
  const terminal = observation.events.findLast((event) => event.kind === "terminal");
  return {
    kinds: listed(observation.kinds),
    terminal: terminal?.kind === "terminal" ? terminal.status : null,
    exitCode: observation.exitCode,
    text: observation.text.slice(0, 3),
  };
}

/** At most the first 20 kinds of a stream (a flood has thousands). */
function listed(kinds: readonly string[]): string[] {
  return kinds.length > 20 ? [...kinds.slice(0, 20), `… ${kinds.length - 20} more`] : [...kinds];
}
