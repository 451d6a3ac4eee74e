/**
 * The capability board as data: one row per CLI host, two columns per capability flag, "argv" (the flag is in
 * the host's invocation: `cli/capabilities/<flag>-<positive|negative>`) and "behaviour" (the CLI does what the
 * flag says against the scripted mock model: `cli/capability-behavior/<flag>-<positive|negative>`), and one
 * behaviour column for `cli/capability-behavior/tool-round-trip`. A reader sees at a glance where a flag is in
 * argv but does not work. The markdown board and report.html both render it.
 *
 * What a half cell shows, from the results it is made of (a result's `status` and its expectation):
 *
 * - **argv**: the one `cli/capabilities/<flag>-…` result (the tier checks the direction the host claims).
 *   PASS is ✓ when the host claims the flag (`-positive`: its marker is in argv) and ○ when it does not
 *   (`-negative`: no marker, as it should be).
 * - **behaviour**, a host that claims the flag (its argv result is `-positive`, or a behaviour `-positive`
 *   exists): ✓ only when `-positive` and `-negative` both PASS; a missing half is "not observed" (?).
 * - **behaviour**, a host that does not claim it: the `-negative` result alone; PASS is ○.
 * - Otherwise the worst status of the results shows (✗ FAIL/TIMEOUT/ERROR, ! WARN, ? SKIP, i INFO): a SKIP is
 *   "not observed", never a pass, and a failure is never hidden. Every such cell gets a footnote naming the
 *   result and saying whether it is a known finding (an expected non-PASS from `hosts/expectations/`), an
 *   unexpected result, or a stale expectation (listed as failing, now passing).
 *
 * @module
 */
import { compare, expectedLabel, type Status, type TestResult } from "../outcome.ts";
import { redact } from "./redact.ts";
import type { ReportHost, RunReport } from "./schema.ts";

/** The prefix of the argv tier's ids. */
export const ARGV_PREFIX = "cli/capabilities/";
/** The prefix of the behaviour tier's ids. */
export const BEHAVIOR_PREFIX = "cli/capability-behavior/";
/** The behaviour tier's one test that is no flag: a tool call and its result through the CLI's stream. */
export const TOOL_ROUND_TRIP = `${BEHAVIOR_PREFIX}tool-round-trip`;

/** The marks of a half cell. */
export const CAPABILITY_MARK = {
  /** Claimed, and shown: in argv, or it behaves so (positive and negative both PASS). */
  works: "✓",
  /** Not claimed, and absent as it should be: no marker in argv; without the flag the CLI does not do it. */
  absent: "○",
  /** A FAIL, TIMEOUT or ERROR among the results. */
  broken: "✗",
  /** A WARN (a SHOULD broken) and nothing worse. */
  warned: "!",
  /** A SKIP, or a half that did not run: not observed, so never a pass. */
  unobserved: "?",
  /** An INFO and nothing worse. */
  info: "i",
} as const;

/** One half cell: argv or behaviour of one flag on one host. */
export interface CapabilityHalf {
  /** One of {@linkcode CAPABILITY_MARK}'s marks. */
  mark: string;
  /** Whether the host claims the flag (always true for the tool round trip). */
  claimed: boolean;
  /** The results the half is made of, in id order (`-negative` before `-positive`). */
  results: TestResult[];
  /** The result a link from the cell should open: the one whose status shows. */
  shown: TestResult;
  /** Why the cell is not a plain ✓ or ○: the footnote text, redacted. */
  note?: string;
  /** The number of the note's footnote. */
  footnote?: number;
  /** Whether a shown failure is a known finding, unexpected, or a stale expectation. */
  verdict: "expected" | "unexpected" | "stale";
}

/** One flag on one host. */
export interface CapabilityCell {
  /** The argv half; absent when the argv tier did not run for the host. */
  argv?: CapabilityHalf;
  /** The behaviour half; absent when the behaviour tier did not run for the host. */
  behavior?: CapabilityHalf;
}

/** One host's row. */
export interface CapabilityRow {
  /** The host. */
  host: ReportHost;
  /** One per flag, in {@linkcode CapabilityBoard.flags} order. */
  cells: CapabilityCell[];
  /** The tool round trip, when it ran. */
  roundTrip?: CapabilityHalf;
}

/** The capability board of a report. */
export interface CapabilityBoard {
  /** The flags, in the order the report first names them. */
  flags: string[];
  /** One row per host with any capability result, in report order. */
  rows: CapabilityRow[];
  /** Whether any behaviour result is on the board (without one, the behaviour columns are empty). */
  behaviorRan: boolean;
  /** When some behaviour result is on the board: the flags no host has a behaviour result for. */
  untested: string[];
  /** Claimed flags whose argv half is ✓ but whose behaviour half fails (✗ or !): the board's point. */
  gaps: { host: string; flag: string }[];
  /** Footnote `n` at index `n - 1`. */
  footnotes: string[];
}

/** Options of {@linkcode capabilityBoard}. */
export interface CapabilityBoardOptions {
  /** Keep test-only hosts as rows (the HTML report does; the markdown board does not). */
  includeTestOnly?: boolean;
  /** Secret values to redact besides the built-in shapes. */
  secrets?: readonly string[];
}

const FLAG_ID = /^(\w+)-(positive|negative)$/;

/** Worst first: the status a half shows is the first of these among its results. */
const SEVERITY: readonly Status[] = ["ERROR", "TIMEOUT", "FAIL", "WARN", "SKIP", "INFO", "PASS"];

/**
 * Lays a report's capability results out as host × (flag × argv, behaviour). Empty (no rows) when the report
 * has no `cli/capabilities/` or `cli/capability-behavior/` result for a host on the board.
 *
 * @example
 * ```ts
 * import { capabilityBoard } from "./capability_board.ts";
 * import type { RunReport } from "./schema.ts";
 * declare const report: RunReport;
 * const board = capabilityBoard(report);
 * for (const gap of board.gaps) console.log(`${gap.host}: ${gap.flag} is in argv but does not work`);
 * ```
 */
export function capabilityBoard(report: RunReport, options: CapabilityBoardOptions = {}): CapabilityBoard {
  const hosts = report.hosts.filter((host) => options.includeTestOnly || !host.testOnly);
  const onBoard = new Set(hosts.map((host) => host.id));
  const flags: string[] = [];
  const byHost = new Map<string, Map<string, TestResult>>();
  let behaviorRan = false;
  for (const result of report.results) {
    if (!onBoard.has(result.host)) continue;
    const argv = result.test.startsWith(ARGV_PREFIX);
    const behavior = result.test.startsWith(BEHAVIOR_PREFIX);
    if (!argv && !behavior) continue;
    const rest = result.test.slice(argv ? ARGV_PREFIX.length : BEHAVIOR_PREFIX.length);
    const flag = FLAG_ID.exec(rest)?.[1];
    if (flag === undefined && result.test !== TOOL_ROUND_TRIP) continue;
    if (flag !== undefined && !flags.includes(flag)) flags.push(flag);
    behaviorRan ||= behavior;
    let tests = byHost.get(result.host);
    if (!tests) byHost.set(result.host, tests = new Map());
    tests.set(result.test, result);
  }
  const footnotes: string[] = [];
  const numberOf = new Map<string, number>();
  const numbered = (half: CapabilityHalf | undefined) => {
    if (half?.note === undefined) return half;
    let number = numberOf.get(half.note);
    if (number === undefined) {
      footnotes.push(half.note);
      number = footnotes.length;
      numberOf.set(half.note, number);
    }
    half.footnote = number;
    return half;
  };
  const secrets = options.secrets ?? [];
  const rows: CapabilityRow[] = [];
  const gaps: { host: string; flag: string }[] = [];
  for (const host of hosts) {
    const tests = byHost.get(host.id);
    if (!tests) continue;
    const cells = flags.map((flag): CapabilityCell => {
      const of = (prefix: string, direction: string) => tests.get(`${prefix}${flag}-${direction}`);
      const argvPositive = of(ARGV_PREFIX, "positive");
      const argvNegative = of(ARGV_PREFIX, "negative");
      const positive = of(BEHAVIOR_PREFIX, "positive");
      const negative = of(BEHAVIOR_PREFIX, "negative");
      // The argv tier checks the direction the host claims; without it, a behaviour -positive says the claim.
      const claimed = argvPositive !== undefined || (argvNegative === undefined && positive !== undefined);
      const cell: CapabilityCell = {};
      const argvResults = [argvNegative, argvPositive].filter((r) => r !== undefined);
      const argv = numbered(half(argvResults, claimed, [], secrets));
      if (argv) cell.argv = argv;
      const behaviorResults = [negative, positive].filter((r) => r !== undefined);
      const missing = [
        ...negative === undefined ? [`${BEHAVIOR_PREFIX}${flag}-negative`] : [],
        ...claimed && positive === undefined ? [`${BEHAVIOR_PREFIX}${flag}-positive`] : [],
      ];
      const behavior = numbered(half(behaviorResults, claimed, missing, secrets));
      if (behavior) cell.behavior = behavior;
      if (
        argv?.mark === CAPABILITY_MARK.works &&
        (behavior?.mark === CAPABILITY_MARK.broken || behavior?.mark === CAPABILITY_MARK.warned)
      ) {
        gaps.push({ host: host.id, flag });
      }
      return cell;
    });
    const trip = tests.get(TOOL_ROUND_TRIP);
    const row: CapabilityRow = { host, cells };
    const roundTrip = numbered(half(trip ? [trip] : [], true, [], secrets));
    if (roundTrip) row.roundTrip = roundTrip;
    rows.push(row);
  }
  const untested = behaviorRan
    ? flags.filter((_, index) => rows.every((row) => row.cells[index]?.behavior === undefined))
    : [];
  return { flags, rows, behaviorRan, untested, gaps, footnotes };
}

/**
 * One half cell from its results, or `undefined` when none ran. `missing` names the results the half needs
 * that did not run: with them absent, the half is at best not observed.
 */
function half(
  results: TestResult[],
  claimed: boolean,
  missing: readonly string[],
  secrets: readonly string[],
): CapabilityHalf | undefined {
  if (results.length === 0) return undefined;
  const worst = (a: TestResult, b: TestResult) =>
    SEVERITY.indexOf(a.status) - SEVERITY.indexOf(b.status) ||
    Number(compare(b) === "unexpected") - Number(compare(a) === "unexpected");
  const shown = [...results].sort(worst)[0]!;
  let mark: string;
  switch (shown.status) {
    case "PASS":
      mark = missing.length > 0
        ? CAPABILITY_MARK.unobserved
        : claimed
        ? CAPABILITY_MARK.works
        : CAPABILITY_MARK.absent;
      break;
    case "INFO":
      mark = missing.length > 0 ? CAPABILITY_MARK.unobserved : CAPABILITY_MARK.info;
      break;
    case "SKIP":
      mark = CAPABILITY_MARK.unobserved;
      break;
    case "WARN":
      mark = CAPABILITY_MARK.warned;
      break;
    default:
      mark = CAPABILITY_MARK.broken;
  }
  // Every result that is not a plain PASS is named, both halves of a behaviour cell, worst first.
  const notes = [...results].sort(worst)
    .filter((result) => result.status !== "PASS" || compare(result) === "stale")
    .map((result) => describe(result, secrets));
  if (missing.length > 0) notes.push(`not observed: ${missing.join(" and ")} did not run`);
  const verdicts = results.map((result) => compare(result));
  const verdict = verdicts.includes("unexpected")
    ? "unexpected"
    : verdicts.includes("stale")
    ? "stale"
    : "expected";
  const out: CapabilityHalf = { mark, claimed, results, shown, verdict };
  if (notes.length > 0) out.note = notes.join("; ");
  return out;
}

/** A footnote for one result: its id, status, how it stands against its expectation, and its message. */
function describe(result: TestResult, secrets: readonly string[]): string {
  const message = redact(result.message.trim(), secrets) || "no message";
  const verdict = compare(result);
  const listed = result.expectedAny ?? [result.expected];
  const standing = verdict === "stale"
    ? `stale expectation: listed as ${expectedLabel(result)} in hosts/expectations, now PASS`
    : result.status === "SKIP"
    ? "SKIP, not observed"
    : verdict === "unexpected"
    ? `unexpected ${result.status} (expected ${expectedLabel(result)})`
    : result.status !== "INFO" && listed.includes(result.status)
    ? `${result.status}, a known finding (expected ${expectedLabel(result)} in hosts/expectations)`
    : result.status;
  return `${result.test}: ${standing}: ${message}`;
}
