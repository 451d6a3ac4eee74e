/**
 * The board as data: tests × hosts, one cell per result, with the mark each status shows as and numbered
 * footnotes for SKIP and INFO reasons. The markdown and HTML boards both render this grid.
 *
 * @module
 */
import type { Status, TestResult } from "../outcome.ts";
import { redact } from "./redact.ts";
import type { ReportHost, RunReport } from "./schema.ts";

/** The board mark of each status: PASS ✓, FAIL/TIMEOUT/ERROR ✗, WARN !, INFO i, SKIP –. */
export const STATUS_MARK: Record<Status, string> = {
  PASS: "✓",
  FAIL: "✗",
  WARN: "!",
  INFO: "i",
  SKIP: "–",
  TIMEOUT: "✗",
  ERROR: "✗",
};

/** One cell: the result, and for a SKIP, an INFO or a flaky result the number of its reason's footnote. */
export interface BoardCell {
  /** The (redacted) result shown. */
  result: TestResult;
  /** ✓ ✗ ! i or –. */
  mark: string;
  /** For a SKIP, an INFO or a flaky result (`--retries`): the number of its reason's footnote. */
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
  /** SKIP and INFO reasons and flaky notes, footnote `n` at index `n - 1`. */
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
    row.cells[index] = { result, mark: STATUS_MARK[result.status] };
  }
  const rows = [...rowsByTest.values()].sort((a, b) => a.test < b.test ? -1 : a.test > b.test ? 1 : 0);
  // Footnotes are numbered in reading order: row by row, left to right; one number per distinct reason.
  const footnotes: string[] = [];
  const numberOf = new Map<string, number>();
  for (const row of rows) {
    for (const cell of row.cells) {
      // A bare mark says too little for these: the reason is what a reader needs.
      if (!cell || (cell.result.status !== "SKIP" && cell.result.status !== "INFO" && !cell.result.flaky)) {
        continue;
      }
      const reason = cell.result.flaky
        ? `flaky: as expected only on attempt ${cell.result.attempts ?? 2} (--retries)`
        : redact(cell.result.message.trim() || "no reason given", options.secrets);
      let number = numberOf.get(reason);
      if (number === undefined) {
        footnotes.push(reason);
        number = footnotes.length;
        numberOf.set(reason, number);
      }
      cell.footnote = number;
    }
  }
  return { hosts, omitted, rows, footnotes };
}
