/**
 * `conformance parse DIR --judge`: a saved run (a failing CLI test's stream under `<out>/streams/`, or a
 * fixture) judged again against the agent-CLI stream contract, offline, beside the verdict the run itself
 * gave (its `meta.json` keeps it). What a replay can judge is what the saved files show: the exit code, a
 * stop by a timeout, the init event where the host's stream shape requires one, exactly one terminal and it
 * last, its status, whether the host's own terminal event ended the stream (an event-terminal host) and no
 * unparsed line. The process group and the byte-level checks (line length, UTF-8) are not in the files; a
 * test of another tier than `cli/behavior/` was judged by its tier's own rules as well.
 *
 * @module
 */
import type { NormalizedEvent } from "../src/normalize/events.ts";
import type { StreamShape } from "../src/exec/host_runner.ts";
import { quoteHostText } from "../src/quote.ts";

/** What `meta.json` says of the run, as far as the judgement needs it. */
export interface SavedRunFacts {
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly stopped?: string | null;
  readonly test?: string;
  readonly verdict?: { readonly status: string; readonly message: string };
}

/** The judgement of a replay. */
export interface Rejudgement {
  readonly status: "PASS" | "FAIL";
  /** What breaks the contract, one clause each; empty for a PASS. */
  readonly problems: readonly string[];
}

/**
 * The stream shape a saved run of `test` is judged by: the golden path's (a blocking JSON document has no init
 * and its result is the terminal event; a version check and a detached run end at EOF), else the host's.
 */
export function shapeOfSavedRun(test: string | undefined, hostShape: StreamShape): StreamShape {
  const path = test?.split("/").at(-1);
  if (path === "blocking-json") return { init: "none", terminal: "event" };
  if (path === "version-check" || path === "detached") return { init: "none", terminal: "eof" };
  return hostShape;
}

/**
 * Judges a saved run's normalised events and recorded exit against the stream contract.
 *
 * @example
 * ```ts ignore
 * judgeSavedRun(events, { exitCode: 3 }, { init: "required", terminal: "event" });
 * // { status: "FAIL", problems: ["exit code 3, expected 0"] }
 * ```
 */
export function judgeSavedRun(
  events: readonly NormalizedEvent[],
  facts: SavedRunFacts,
  shape: StreamShape,
): Rejudgement {
  const problems: string[] = [];
  if (facts.stopped) problems.push(`the run was stopped (${facts.stopped} timeout or abort)`);
  if (facts.exitCode !== 0) {
    problems.push(`exit code ${facts.exitCode ?? `signal ${facts.signal ?? "unknown"}`}, expected 0`);
  }
  const kinds = events.map((event) => event.kind);
  if (shape.init === "required" && kinds[0] !== "init") {
    problems.push(`the first event is "${kinds[0] ?? "nothing"}", expected "init"`);
  }
  const terminals = kinds.filter((kind) => kind === "terminal").length;
  if (terminals !== 1 || kinds.at(-1) !== "terminal") {
    problems.push(`expected exactly one terminal and it last, got ${terminals}`);
  }
  const terminal = events.findLast((event) => event.kind === "terminal");
  if (terminal?.kind === "terminal" && terminal.status !== "success") {
    problems.push(
      `terminal status "${terminal.status}" (${terminal.reason ?? "no reason"}), expected "success"`,
    );
  }
  // An event-terminal host's own terminal event ends its stream; one the end-of-stream rule made up does not.
  if (shape.terminal === "event" && terminal?.kind === "terminal" && terminal.synthetic === true) {
    problems.push("the stream reached EOF without the host's own terminal event");
  }
  const unparsed = events.filter((event) => event.kind === "unparsed");
  if (unparsed.length > 0) {
    problems.push(
      `${unparsed.length} unparsed line(s), first: ${quoteHostText(unparsed[0]?.raw ?? "", 200)}`,
    );
  }
  return { status: problems.length === 0 ? "PASS" : "FAIL", problems };
}

/** The lines `parse --judge` prints: the new judgement, then the run's own verdict, when it kept one. */
export function judgementLines(judgement: Rejudgement, facts: SavedRunFacts, dir: string): string[] {
  const verdict = (status: string, message: string) => message === "" ? status : `${status}: ${message}`;
  const lines = [
    `judged again against the stream contract: ${verdict(judgement.status, judgement.problems.join("; "))}`,
  ];
  const test = facts.test ? ` (${facts.test})` : "";
  if (facts.verdict) {
    lines.push(`the run's verdict${test}: ${verdict(facts.verdict.status, facts.verdict.message)}`);
    if (facts.test !== undefined && !facts.test.startsWith("cli/behavior/")) {
      lines.push(
        "the run judged by its tier's own rules as well; a replay checks the stream contract only",
      );
    }
  } else {
    lines.push(
      `the run kept no verdict in ${dir}/meta.json (a fixture, or a run saved before verdicts were kept)`,
    );
  }
  return lines;
}
