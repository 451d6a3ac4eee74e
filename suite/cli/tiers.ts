/**
 * The agent-CLI suite as a list of tier modules. The CLI driver (`suite/cli/driver.ts`) asks every tier in
 * {@linkcode CLI_TIERS} which tests it has for a host, and runs a selection of them concurrently.
 *
 * A tier is a module `suite/cli/<name>.ts` exporting a {@linkcode CliTier} (its contract is in
 * `suite/cli/tier.ts`); adding one is that file and one line in {@linkcode CLI_TIERS}.
 *
 * @module
 */
import type { CliTier } from "./tier.ts";
import { behaviorTier } from "./behavior.ts";
import { capabilitiesTier } from "./capabilities.ts";
import { constructabilityTier } from "./constructability.ts";
import { mockModelTier } from "./mock_model.ts";
import { capabilityBehaviorTier } from "./capability_behavior.ts";
import { compositionTier } from "./composition.ts";
import { scriptedTier } from "./scripted.ts";
import { acpTier } from "./acp.ts";

export type { CliTier } from "./tier.ts";

/** The per-test deadline a tier gets when it names none, before `--timeout-multiplier`. */
export const DEFAULT_TEST_TIMEOUT_MS = 60_000;

/** Every CLI tier, in run order. */
export const CLI_TIERS: readonly CliTier[] = [
  constructabilityTier,
  capabilitiesTier,
  behaviorTier,
  scriptedTier,
  compositionTier,
  mockModelTier,
  capabilityBehaviorTier,
  acpTier,
];
