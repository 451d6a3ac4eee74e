/**
 * The board as data: tests × hosts, one cell per result, with the mark each status shows as, how the result
 * stands against its expectation (src/report/verdict.ts), and a numbered note for every cell that is not a
 * plain ✓: the message, and whether it is unexpected, a known finding (with the expectation's reason) or a
 * stale expectation. The markdown and HTML boards both render this grid.
 *
 * @module
 */
import type { Status, TestResult } from "../outcome.ts";
import { cutAtWord } from "../quote.ts";
import { redact } from "./redact.ts";
import type { ReportHost, RunReport } from "./schema.ts";
import { expectationReason, judge, type Verdict } from "./verdict.ts";

/**
 * The board mark of each status: PASS ✓, FAIL ✗ (a MUST broken), TIMEOUT ◷ (the host did not finish), ERROR ⚠
 * (the harness failed, not the host), WARN !, INFO i, SKIP –.
 */
export const STATUS_MARK: Record<Status, string> = {
  PASS: "✓",
  FAIL: "✗",
  WARN: "!",
  INFO: "i",
  SKIP: "–",
  TIMEOUT: "◷",
  ERROR: "⚠",
};

/**
 * The mark of a fault test whose host was still retrying at the limit with retry events in its stream (a WARN,
 * `details.faultHandling` "retrying-visibly", suite/cli/mock_model_judge.ts): told apart at a glance from a host
 * that stayed silent (✗) or ended with a clear error (✓). Its note gives the retries and their delays.
 */
export const RETRYING_MARK = "↻";

/** The mark a result shows as: its status's, but ↻ for a host still retrying visibly at the limit. */
export function markOf(result: TestResult): string {
  return result.details?.faultHandling === "retrying-visibly" ? RETRYING_MARK : STATUS_MARK[result.status];
}

/** One cell: the result, how it stands, and unless it is a plain ✓, the number of its note. */
export interface BoardCell {
  /** The (redacted) result shown. */
  result: TestResult;
  /** ✓ ✗ ◷ ⚠ ! i – or ↻. */
  mark: string;
  /** How the result stands against its expectation; boards set an unexpected or stale cell apart. */
  verdict: Verdict;
  /** Every cell but a plain, expected PASS: the number of its note (message, standing, reason). */
  footnote?: number;
}

/** One row: a test and its cell per board host (absent where the host did not run it). */
export interface BoardRow {
  /** The test id. */
  test: string;
  /** One per board host, in column order. */
  cells: (BoardCell | undefined)[];
}

/** The grid of a report. */
export interface BoardGrid {
  /** Columns, in report order. */
  hosts: ReportHost[];
  /** Test-only hosts left off by policy (empty when they are included). */
  omitted: ReportHost[];
  /** Rows, sorted by test id. */
  rows: BoardRow[];
  /** The notes of the cells, footnote `n` at index `n - 1`. */
  footnotes: string[];
}

/** Options of {@linkcode boardGrid}. */
export interface BoardGridOptions {
  /** Keep test-only hosts as columns (the HTML report does; the markdown board does not). */
  includeTestOnly?: boolean;
  /** Secret values to redact besides the built-in shapes. */
  secrets?: readonly string[];
}

/**
 * Lays a report out as a board.
 *
 * @example
 * ```ts
 * import { boardGrid } from "./board_grid.ts";
 * import type { RunReport } from "./schema.ts";
 * declare const report: RunReport;
 * const grid = boardGrid(report);
 * console.log(grid.rows.length, grid.footnotes);
 * ```
 */
export function boardGrid(report: RunReport, options: BoardGridOptions = {}): BoardGrid {
  const hosts = report.hosts.filter((host) => options.includeTestOnly || !host.testOnly);
  const omitted = report.hosts.filter((host) => !hosts.includes(host));
  const column = new Map(hosts.map((host, index) => [host.id, index]));
  const rowsByTest = new Map<string, BoardRow>();
  for (const result of report.results) {
    const index = column.get(result.host);
    if (index === undefined) continue;
    let row = rowsByTest.get(result.test);
    if (!row) {
      row = { test: result.test, cells: hosts.map(() => undefined) };
      rowsByTest.set(result.test, row);
    }
    row.cells[index] = { result, mark: markOf(result), verdict: judge(result).verdict };
  }
  const rows = [...rowsByTest.values()].sort((a, b) => a.test < b.test ? -1 : a.test > b.test ? 1 : 0);
  // Footnotes are numbered in reading order: row by row, left to right; one number per distinct note.
  const footnotes: string[] = [];
  const numberOf = new Map<string, number>();
  for (const row of rows) {
    for (const cell of row.cells) {
      if (!cell) continue;
      const note = cellNote(cell, options.secrets);
      if (note === null) continue;
      let number = numberOf.get(note);
      if (number === undefined) {
        footnotes.push(note);
        number = footnotes.length;
        numberOf.set(note, number);
      }
      cell.footnote = number;
    }
  }
  return { hosts, omitted, rows, footnotes };
}

/** The longest message a note quotes; the result itself has the whole of it. */
const NOTE_MESSAGE_CHARS = 300;

/**
 * A cell's note, or `null` for a plain PASS: how the result stands (unexpected, a known finding with its
 * reason, a stale expectation, flaky) and its message. A SKIP's or an INFO's note is its reason alone.
 */
export function cellNote(
  cell: Pick<BoardCell, "result" | "verdict">,
  secrets: readonly string[] = [],
): string | null {
  const { result, verdict } = cell;
  const message = cutAtWord(redact(result.message.trim(), secrets), NOTE_MESSAGE_CHARS);
  const flaky = result.flaky ? `flaky: as expected only on attempt ${result.attempts ?? 2} (--retries)` : "";
  if (result.status === "PASS" && verdict !== "stale") return flaky || null;
  if ((result.status === "SKIP" || result.status === "INFO") && verdict === "as-expected") {
    return [flaky, message || "no reason given"].filter(Boolean).join("; ");
  }
  const reason = expectationReason(result);
  const standing = verdict === "stale"
    ? `stale expectation: listed as ${result.expectedAny?.join(" or ") ?? result.expected}, now PASS`
    : verdict === "unexpected"
    ? `unexpected ${result.status}`
    : verdict === "known"
    ? `known ${result.status}${reason ? ` (listed: ${redact(reason, secrets)})` : ""}`
    : result.status;
  return [flaky, standing, message].filter(Boolean).join(": ");
}

/**
 * A host's version for a column header: the version number its `--version` line names, without the program's
 * name or a release note around it (`codex-cli 0.171.0` → `0.171.0`); the line as it is when it names none.
 *
 * @example
 * ```ts
 * import { shortVersion } from "./board_grid.ts";
 * shortVersion("0.0.1790142911-g7618fb (released 2026-09-23T05:55:11.000Z, 2mo ago)"); // "0.0.1790142911-g7618fb"
 * ```
 */
export function shortVersion(version: string): string {
  return /\bv?\d+\.\d+(?:\.\d+)?(?:[-+][\w.-]+)?/.exec(version)?.[0] ?? version;
}
