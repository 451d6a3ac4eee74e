/**
 * The one list of reporters. A reporter is one module (its default export a {@linkcode ReporterModule}) and
 * one row here: its `--reporter` name, what it gives in a few words, and its module. The names `--reporter`
 * accepts, its help, the "wrote PATH" lines and the standard-output rule all come from this list and the
 * modules it names. The modules load only when a run makes reporters (`./create.ts`), so `--help` reads the
 * list without loading any.
 *
 * @module
 */
import type { ReporterModule } from "./reporter.ts";

/** One reporter: the name `--reporter` takes, its line in the help, and its module. */
export interface ReporterRow {
  /** The `--reporter` name. */
  readonly name: string;
  /**
   * What it gives, in a few words, for `--reporter`'s help: first the file it writes under `--out` when it
   * writes one, and "needs --out" when it cannot run without (tests/report/reporters_test.ts holds these to
   * the module).
   */
  readonly about: string;
  /** Loads its module. */
  load(): Promise<{ readonly default: ReporterModule }>;
}

/** Every reporter, in help order; the first is the default. */
export const REPORTERS = [
  { name: "pretty", about: "live progress, then what needs attention", load: () => import("./pretty.ts") },
  { name: "json", about: "report.json, schema conformance-report/1", load: () => import("./json.ts") },
  { name: "junit", about: "junit.xml, one <testsuite> per host", load: () => import("./junit.ts") },
  { name: "markdown", about: "board.md, the tests × hosts board", load: () => import("./markdown.ts") },
  { name: "html", about: "report.html, one page; needs --out", load: () => import("./html.ts") },
  { name: "github", about: "::error annotations, board to step summary", load: () => import("./github.ts") },
  { name: "ctrf", about: "ctrf-report.json, Common Test Report Format", load: () => import("./ctrf.ts") },
] as const satisfies readonly ReporterRow[];

/** One of the names in {@linkcode REPORTERS}. */
export type ReporterName = typeof REPORTERS[number]["name"];

/** The `--reporter` names, in help order. */
export const REPORTER_NAMES: readonly ReporterName[] = REPORTERS.map((row) => row.name);
