/**
 * The broken variants of the built-in fake host, `fake:<name>`: the scripted and composition tiers run only on
 * scripted hosts, so a flaw of the fake itself is what can make them fail. Each runs `fake` with one flaw
 * switched on through the environment (`CONFORMANCE_FAKE_FLAW`, fake_host/mod.ts); the CLI variant gate
 * (tests/hosts/cli/reference_agent_variants_test.ts) holds each to its `fails`, as it does the reference
 * agent's variants.
 *
 * @module
 */
import type { CliHostEntry } from "../../src/host.ts";
import type { AgentVariant } from "./reference_agent_variants.ts";
import { cliRunner } from "./_runner.ts";
import { FAKE_SPEC, fakeHost } from "./fake.ts";

/** The variable the fake host reads its flaw from (fake_host/mod.ts; the program imports nothing here). */
const FAKE_FLAW_ENV = "CONFORMANCE_FAKE_FLAW";

const COMPOSITION = ["happy-path", "result-error", "exit-before-terminal", "blocking-json-structured"];

/** Every fake variant. */
export const FAKE_VARIANTS: readonly AgentVariant[] = [
  {
    name: "stderr-banner",
    kind: "program",
    summary: "prints a banner line on stderr before its stream",
    fails: Object.fromEntries([
      ...COMPOSITION.map((name) => `cli/composition/${name}`),
      ...["streaming", "blocking-json", "resume"].map((path) => `cli/behavior/${path}`),
      ...[
        "ordering",
        "result-error",
        "failed-start",
        "empty-stdout-exit-41",
        "exit-before-terminal",
        "error-result-exit-1",
        "retry-storm",
        "repeated-terminals",
        "reads-stdin",
        "max-turns",
        "pi-retries-several-agent-ends",
        "codex-reconnect-storm",
        "eof-without-terminal",
        "stderr-noise-on-success",
      ].map((name) => `cli/scripted/${name}`),
    ].map((id) => [id, "FAIL"])),
  },
];

/** Registry entries of the fake's variants, in table order. */
export const FAKE_VARIANT_HOSTS: readonly CliHostEntry[] = FAKE_VARIANTS.map((variant) => ({
  ...fakeHost,
  id: `fake:${variant.name}`,
  summary: `Fake host, broken: ${variant.summary}`,
  variantOf: "fake",
  runner: cliRunner({
    ...FAKE_SPEC,
    name: `fake:${variant.name}`,
    env: { ...FAKE_SPEC.env, [FAKE_FLAW_ENV]: variant.name },
  }),
}));
