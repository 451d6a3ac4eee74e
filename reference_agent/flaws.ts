/**
 * The flaws the reference agent can be told to have, one per broken variant of hosts/cli/reference_agent.ts
 * whose flaw lives in the program (the others break the host file's argv or declarations). The variant's host
 * entry sets {@linkcode FLAW_ENV} to the flaw's name, so every variant runs with the very argv of the
 * reference agent and only the behaviour named here differs.
 *
 * @module
 */

/** The variable that names the flaw; unset or empty: the agent is conformant. */
export const FLAW_ENV = "CONFORMANCE_REFERENCE_AGENT_FLAW";

/** Every flaw, each breaking one behaviour (what it breaks is in the variant table's summary). */
export const FLAWS = [
  "never-calls-model",
  "crashes-on-tool-call",
  "crashes-on-refusal",
  "ignores-allowlist",
  "writes-outside-root",
  "refuses-writes",
  "runs-tools-without-bypass",
  "forgets-session",
  "resume-without-model",
  "resumes-unasked",
  "loads-every-agent",
  "ignores-schema",
  "offers-structured-output-unasked",
  "error-as-success",
  "retries-silently",
  "retries-visibly-forever",
  "exit-zero-after-error",
  "two-terminals",
  "no-init",
  "leaves-child",
  "mismatched-tool-ids",
  "drops-usage",
  "version-on-stderr",
] as const;

/** One of {@linkcode FLAWS}. */
export type Flaw = typeof FLAWS[number];

/**
 * The flaw named by the environment, `null` for none. Throws `TypeError` for a name that is not a flaw.
 *
 * @example
 * ```ts
 * import { flawOf } from "./flaws.ts";
 * flawOf("no-init"); // "no-init"
 * flawOf(undefined); // null
 * ```
 */
export function flawOf(value: string | undefined): Flaw | null {
  if (value === undefined || value === "") return null;
  if ((FLAWS as readonly string[]).includes(value)) return value as Flaw;
  throw new TypeError(`Unknown flaw "${value}" in ${FLAW_ENV}: use one of ${FLAWS.join(", ")}`);
}
