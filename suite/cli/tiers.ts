/**
 * The agent-CLI suite as a list of tier modules. The CLI driver (`suite/cli/driver.ts`) asks every tier in
 * {@linkcode CLI_TIERS} which tests it has for a host, and runs a selection of them concurrently.
 *
 * Contract for a tier (add one by writing `suite/cli/<name>.ts` and one line in {@linkcode CLI_TIERS}):
 * - `name` is the second segment of its test ids: every id from `list` is `cli/<name>/<case>`.
 * - `list(entry, settings)` is deterministic and cheap (no subprocess): it returns `[]` when the tier does not
 *   apply to the host, and SKIP-worthy cases are still listed (the SKIP is reported by `run`).
 * - `run(entry, test, settings, signal)` runs one listed test and resolves to its {@linkcode Outcome}; it
 *   must stop promptly when `signal` aborts (the driver aborts it on the test's deadline or on Ctrl-C) and
 *   must leave no process behind. A thrown error is reported as ERROR (a harness fault, never the host's).
 * - `timeoutMs` (optional) is the test's deadline before the timeout multiplier; the driver reports TIMEOUT
 *   past it. Default {@linkcode DEFAULT_TEST_TIMEOUT_MS}.
 *
 * @module
 */
import type { CliHostEntry } from "../../src/host.ts";
import type { Outcome } from "../../src/outcome.ts";
import type { RunSettings, TestCase } from "../../src/suite.ts";
import { behaviorTier } from "./behavior.ts";
import { capabilitiesTier } from "./capabilities.ts";
import { constructabilityTier } from "./constructability.ts";
import { mockModelTier } from "./mock_model.ts";
import { compositionTier } from "./composition.ts";
import { scriptedTier } from "./scripted.ts";

/** The per-test deadline a tier gets when it names none, before `--timeout-multiplier`. */
export const DEFAULT_TEST_TIMEOUT_MS = 60_000;

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

/** Every CLI tier, in run order. */
export const CLI_TIERS: readonly CliTier[] = [
  constructabilityTier,
  capabilitiesTier,
  behaviorTier,
  scriptedTier,
  compositionTier,
  mockModelTier,
];
