/**
 * The `markdown` reporter: the pass/fail board, tests × hosts with ✓ ✗ ◷ ⚠ ! i – marks (bold where the run
 * fails on the result: unexpected, or a stale expectation), a numbered note for every mark but ✓ (its message,
 * and a known finding's listed reason) and for test titles (`[^t<row>]` after the test id), written to
 * `board.md`. Test-only hosts (the fakes, broken reference variants) are left off by policy, and the board says
 * which. Under it, when the run checked capabilities, the
 * capability board: host × flag, "argv" and "behaviour" side by side (src/report/capability_board.ts).
 *
 * @module
 */
import { boardGrid, type BoardRow, shortVersion } from "./board_grid.ts";
import { ACP_PREFIX, acpBoard } from "./acp_board.ts";
import { capabilityBoard, type CapabilityHalf } from "./capability_board.ts";
import { redact } from "./redact.ts";
import { stripControls } from "./sanitize.ts";
import { type Reporter, type ReporterModule, type TextSink, writeOrPrint } from "./reporter.ts";
import type { ReportHost, RunReport } from "./schema.ts";

/** The file name the markdown reporter writes in the output folder. */
export const MARKDOWN_BOARD_FILE = "board.md";

/** Options of {@linkcode renderBoardMarkdown}. */
export interface BoardMarkdownOptions {
  /** The page title; "Conformance board" by default. */
  title?: string;
  /** Secret values to redact besides the built-in shapes. */
  secrets?: readonly string[];
}

/**
 * Renders a report as the markdown board.
 *
 * @example
 * ```ts
 * import { renderBoardMarkdown } from "./markdown.ts";
 * import type { RunReport } from "./schema.ts";
 * declare const report: RunReport;
 * await Deno.writeTextFile("board.md", renderBoardMarkdown(report));
 * ```
 */
export function renderBoardMarkdown(report: RunReport, options: BoardMarkdownOptions = {}): string {
  const grid = boardGrid(report, options.secrets ? { secrets: options.secrets } : {});
  const lines: string[] = [`# ${escapeMarkdown(options.title ?? "Conformance board")}`, ""];
  const run = report.run;
  lines.push(
    `Suite revision \`${code(run.suite)}\` · harness ${escapeMarkdown(run.harness)} · ` +
      `started ${escapeMarkdown(run.startedAt)} · shard ${escapeMarkdown(run.shard)}` +
      (run.incomplete ? " · **incomplete run: results are missing**" : ""),
    "",
  );
  lines.push(...interruptedLines(report, new Set(grid.hosts.map((host) => host.id))));
  if (grid.hosts.length === 0 || grid.rows.length === 0) {
    lines.push(
      grid.hosts.length === 0 ? "No host on this board." : "No results for the hosts on this board.",
      "",
    );
  } else {
    lines.push(`| Test | ${grid.hosts.map((host) => hostHeader(host, options.secrets ?? [])).join(" | ")} |`);
    lines.push(`| --- | ${grid.hosts.map(() => ":-:").join(" | ")} |`);
    for (const [index, row] of grid.rows.entries()) {
      const cells = row.cells.map((cell) => {
        if (!cell) return "";
        // What the run fails on stands out from the known findings.
        const mark = cell.verdict === "unexpected" || cell.verdict === "stale"
          ? `**${cell.mark}**`
          : cell.mark;
        return cell.footnote === undefined ? mark : `${mark}[^${cell.footnote}]`;
      });
      const title = titleOf(row) === undefined ? "" : `[^t${index + 1}]`;
      lines.push(`| \`${code(row.test)}\`${title} | ${cells.join(" | ")} |`);
    }
    const totals = grid.hosts.map((_, index) => {
      const cells = grid.rows.flatMap((row) => row.cells[index] ? [row.cells[index]] : []);
      return `${cells.filter((cell) => cell.result.status === "PASS").length}/${cells.length}`;
    });
    lines.push(`| **Passed** | ${totals.join(" | ")} |`, "");
    lines.push(
      "✓ pass · ✗ fail (a MUST broken) · ◷ timeout · ⚠ harness error (not the host's) · ! warning (a SHOULD " +
        "broken) · ↻ a model fault still retried at the limit, visibly (a warning; a silent one is ✗) · " +
        "i info (a MAY not taken, or an observation that breaks nothing) · – skipped · blank: not " +
        "run · **bold**: unexpected, or a stale expectation (the run fails on it); plain: as expected, a known " +
        "finding listed in the host's expectations · every mark but ✓ has a note: its message, and for a " +
        "known finding the listed reason",
      "",
    );
  }
  if (grid.omitted.length > 0) {
    lines.push(
      `Left off by policy (test-only hosts): ${
        grid.omitted.map((host) => `\`${code(host.id)}\``).join(", ")
      }.`,
      "",
    );
  }
  for (const [index, reason] of grid.footnotes.entries()) {
    lines.push(`[^${index + 1}]: ${escapeMarkdown(reason)}`);
  }
  // The test titles come after the reasons, as footnotes `t<row>` so their numbers never clash.
  const titles = grid.hosts.length === 0 ? [] : grid.rows.flatMap((row, index) => {
    const title = titleOf(row);
    return title === undefined
      ? []
      : [`[^t${index + 1}]: ${escapeMarkdown(redact(title, options.secrets ?? []))}`];
  });
  lines.push(...titles);
  if (grid.footnotes.length + titles.length > 0) lines.push("");
  lines.push(...capabilityLines(report, options.secrets ?? []));
  lines.push(...acpLines(report, options.secrets ?? []));
  return lines.join("\n");
}

/**
 * The capability board (src/report/capability_board.ts) under the main one: a row per host, an "argv" and a
 * "behaviour" column per flag, the tool round trip, the flags in argv that do not work, and footnotes
 * `[^c<n>]` (their own letter, so their numbers never clash with the main board's). Nothing without a
 * capability result.
 */
function capabilityLines(report: RunReport, secrets: readonly string[]): string[] {
  const board = capabilityBoard(report, { secrets });
  if (board.rows.length === 0) return [];
  const mark = (half: CapabilityHalf | undefined) =>
    half === undefined ? "" : half.footnote === undefined ? half.mark : `${half.mark}[^c${half.footnote}]`;
  const headers = board.flags.flatMap((flag) => [`\`${code(flag)}\` argv`, `\`${code(flag)}\` behaviour`]);
  const lines = [
    "## Capabilities: argv and behaviour",
    "",
    `| Host | ${[...headers, "tool round trip"].join(" | ")} |`,
    `| --- | ${[...headers, ""].map(() => ":-:").join(" | ")} |`,
    ...board.rows.map((row) => {
      const cells = row.cells.flatMap((cell) => [mark(cell.argv), mark(cell.behavior)]);
      return `| ${escapeMarkdown(row.host.id)} | ${[...cells, mark(row.roundTrip)].join(" | ")} |`;
    }),
    "",
    "argv: the flag's marker is in the host's invocation (`cli/capabilities/`) · behaviour: the CLI does what " +
    "the flag says against the scripted mock model (`cli/capability-behavior/`: with the flag where the host " +
    "claims it, and without it always) · ✓ claimed and shown (behaviour: both directions pass) · ○ not " +
    "claimed, and absent as it should be · ✗ fails · ! warning · ? not observed (a SKIP, or a direction that " +
    "did not run; never a pass) · i info · blank: not run · a note says which result and whether it is a " +
    "known finding listed in hosts/expectations",
    "",
  ];
  if (!board.behaviorRan) {
    lines.push(
      "No `cli/capability-behavior/` result in this report: the behaviour columns are empty " +
        "(the tier runs with `--mock-model`).",
      "",
    );
  }
  if (board.untested.length > 0) {
    lines.push(
      `No behaviour test of ${
        board.untested.map((flag) => `\`${code(flag)}\``).join(", ")
      } in this report: those behaviour columns are empty.`,
      "",
    );
  }
  if (board.behaviorRan && board.gaps.length > 0) {
    lines.push(
      `**In argv but not working:** ${
        board.gaps.map((gap) => `${escapeMarkdown(gap.host)} \`${code(gap.flag)}\``).join(", ")
      }.`,
      "",
    );
  }
  for (const [index, note] of board.footnotes.entries()) {
    lines.push(`[^c${index + 1}]: ${escapeMarkdown(note)}`);
  }
  if (board.footnotes.length > 0) lines.push("");
  return lines;
}

/** How many interrupted tests are named on the board; the rest are counted. */
const INTERRUPTED_NAMED = 20;

/** The tests an interrupt left without a result, for the hosts on the board: never judged, so never a cell. */
function interruptedLines(report: RunReport, onBoard: ReadonlySet<string>): string[] {
  const interrupted = (report.run.interrupted ?? []).filter((test) => onBoard.has(test.host));
  if (interrupted.length === 0) return [];
  const running = interrupted.filter((test) => test.started).length;
  const named = interrupted.slice(0, INTERRUPTED_NAMED).map((test) =>
    `\`${code(test.test)}\` on ${escapeMarkdown(test.host)}${test.started ? " (running)" : ""}`
  );
  const more = interrupted.length > named.length ? `, and ${interrupted.length - named.length} more` : "";
  return [
    `**Interrupted:** ${interrupted.length} test(s) have no result (${running} running when the run stopped, ` +
    `${interrupted.length - running} not begun); they are not judged: ${named.join(", ")}${more}.`,
    "",
  ];
}

/** A row's test title, from the first of its results that has one. */
function titleOf(row: BoardRow): string | undefined {
  return row.cells.find((cell) => cell?.result.title)?.result.title;
}

function hostHeader(host: ReportHost, secrets: readonly string[]): string {
  const version = host.version ? ` ${escapeMarkdown(shortVersion(redact(host.version, secrets)))}` : "";
  return `${escapeMarkdown(host.id)}${version}`;
}

/** Escapes text for inline markdown in a table cell or paragraph: one line, no markup, no raw HTML. */
export function escapeMarkdown(text: string): string {
  return stripControls(text)
    .replace(/\r?\n|\r/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_[\]|~])/g, "\\$1");
}

/** Text for inside a code span: one line, no backticks or pipes (which would end the span or the cell). */
function code(text: string): string {
  return stripControls(text).replace(/\r?\n|\r/g, " ").replace(/`/g, "'").replace(/\|/g, "¦");
}

/** Options of {@linkcode MarkdownReporter}. */
export interface MarkdownReporterOptions {
  /** Folder for `board.md`; `null` prints the board to `out`. */
  outDir: string | null;
  /** Standard output, used without `outDir`. */
  out: TextSink;
  /** Secret values to redact besides the built-in shapes. */
  secrets?: readonly string[];
}

/** Writes the board at the end of the run. */
export class MarkdownReporter implements Reporter {
  /** The `--reporter` name. */
  readonly name = "markdown" as const;
  readonly #options: MarkdownReporterOptions;

  /**
   * Makes the reporter.
   * @param options Where to write.
   */
  constructor(options: MarkdownReporterOptions) {
    this.#options = options;
  }

  /** Writes the file atomically, or prints it without an output folder. */
  async finish(report: RunReport): Promise<void> {
    const text = renderBoardMarkdown(report, this.#options.secrets ? { secrets: this.#options.secrets } : {});
    await writeOrPrint({ ...this.#options, file: MARKDOWN_BOARD_FILE }, text);
  }
}

/** `--reporter markdown`: `board.md` under `--out`, else the board on standard output. */
export default {
  file: MARKDOWN_BOARD_FILE,
  printsToStdout: true,
  create: (context) =>
    new MarkdownReporter({ outDir: context.outDir, out: context.stdout, secrets: context.secrets }),
} satisfies ReporterModule;

/**
 * The ACP board (src/report/acp_board.ts) last: a row per agent with what its `initialize` claimed and a mark
 * per `cli/acp/*` case (each mark's note is on the main board). Nothing without an ACP result.
 */
function acpLines(report: RunReport, secrets: readonly string[]): string[] {
  const board = acpBoard(report, { secrets });
  if (board.rows.length === 0) return [];
  const list = (items: readonly string[]) =>
    items.length === 0 ? "–" : items.map((item) => `\`${code(item)}\``).join(" ");
  return [
    "## ACP (Agent Client Protocol)",
    "",
    `| Agent | Protocol | Agent info | Claims | Auth | ${
      board.cases.map((name) => `\`${code(name)}\``).join(" | ")
    } | Passed |`,
    `| --- | :-: | --- | --- | --- | ${board.cases.map(() => ":-:").join(" | ")} | :-: |`,
    ...board.rows.map((row) => {
      const claims = row.claims;
      const facts = claims === null ? ["not observed", "not observed", "not observed", "not observed"] : [
        claims.protocolVersion === null ? "?" : String(claims.protocolVersion),
        escapeMarkdown(claims.agent),
        list(claims.capabilities),
        list(claims.authMethods),
      ];
      const marks = row.cells.map((cell) =>
        cell === undefined
          ? ""
          : cell.verdict === "unexpected" || cell.verdict === "stale"
          ? `**${cell.mark}**`
          : cell.mark
      );
      return `| ${escapeMarkdown(row.host.id)} | ${
        [...facts, ...marks, `${row.passed}/${row.ran}`].join(" | ")
      } |`;
    }),
    "",
    `Protocol: the version the agent answered to ours; agent info, claims and auth: its \`initialize\` answer ` +
    `(\`${ACP_PREFIX}initialize\`; "not observed" when that case did not pass) · marks as on the board above, ` +
    "where each one's note is · **bold**: unexpected, or a stale expectation",
    "",
  ];
}
