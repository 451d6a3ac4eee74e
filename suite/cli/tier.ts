/**
 * The contract of one tier of the agent-CLI suite. Tier modules (`suite/cli/behavior.ts`, …) import it from
 * here, and `suite/cli/tiers.ts` only lists them, so no tier module imports the list that imports it.
 *
 * Contract for a tier (add one by writing `suite/cli/<name>.ts` and one line in `CLI_TIERS` in
 * `suite/cli/tiers.ts`):
 * - `name` is the second segment of its test ids: every id from `list` is `cli/<name>/<case>`.
 * - `list(entry, settings)` is deterministic and cheap (no subprocess): it returns `[]` when the tier does not
 *   apply to the host, and SKIP-worthy cases are still listed (the SKIP is reported by `run`).
 * - `run(entry, test, settings, signal)` runs one listed test and resolves to its {@linkcode Outcome}; it
 *   must stop promptly when `signal` aborts (the driver aborts it on the test's deadline or on Ctrl-C) and
 *   must leave no process behind. A thrown error is reported as ERROR (a harness fault, never the host's).
 * - `timeoutMs` (optional) is the test's deadline before the timeout multiplier; the driver reports TIMEOUT
 *   past it. Default `DEFAULT_TEST_TIMEOUT_MS` in `suite/cli/tiers.ts`.
 *
 * @module
 */
import type { CliHostEntry } from "../../src/host.ts";
import type { Outcome } from "../../src/outcome.ts";
import type { RunSettings, TestCase } from "../../src/suite.ts";

/** One tier of the agent-CLI suite: a family of test ids `cli/<name>/*`. */
export interface CliTier {
  /** The tier segment of the test ids, e.g. `scripted`. */
  readonly name: string;
  /** The per-test deadline in milliseconds before the timeout multiplier. */
  readonly timeoutMs?: number;
  /** The tests this tier has for the host (empty when it does not apply). Deterministic, no I/O. */
  list(entry: CliHostEntry, settings: Pick<RunSettings, "live" | "mockModel" | "goldenPaths">): TestCase[];
  /** Runs one listed test. Stops promptly when `signal` aborts and leaves no process behind. */
  run(entry: CliHostEntry, test: TestCase, settings: RunSettings, signal: AbortSignal): Promise<Outcome>;
}
