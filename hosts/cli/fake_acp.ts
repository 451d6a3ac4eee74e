/**
 * `fake-acp` and its broken variants `fake-acp:<defect>`: the scripted ACP agent (`conformance fake-acp-agent`,
 * fake_acp_agent/mod.ts) as hosts of the `cli/acp/*` tier. The healthy one passes every ACP test; each variant
 * commits one known defect and fails exactly the tests {@linkcode FAKE_ACP_VARIANTS} lists for it (the gate is
 * tests/suite/cli/acp_variants_test.ts). They have no golden paths and no model: only the ACP tier runs them,
 * so they stay out of the registry's host list.
 *
 * @module
 */
import { selfCommand } from "../../src/exec/self.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import { FAKE_ACP_DEFECT_ENV, type FakeAcpDefect } from "../../fake_acp_agent/mod.ts";
import { cliRunner } from "./_runner.ts";

/** A defect and the ACP tests it must fail (every other ACP test passes). */
export interface FakeAcpVariant {
  readonly defect: FakeAcpDefect;
  readonly fails: readonly string[];
}

/** Every defect of the fake, with its targets. */
export const FAKE_ACP_VARIANTS: readonly FakeAcpVariant[] = [
  { defect: "stray-stdout", fails: ["cli/acp/initialize"] },
  { defect: "echoes-unsupported-version", fails: ["cli/acp/initialize-unsupported-version"] },
  { defect: "reused-session-id", fails: ["cli/acp/session-new"] },
  {
    defect: "update-after-response",
    fails: [
      "cli/acp/prompt",
      "cli/acp/cancel",
      "cli/acp/permission-cancel",
      "cli/acp/session-resume",
      "cli/acp/session-close",
    ],
  },
  {
    defect: "end-turn-after-cancel",
    fails: ["cli/acp/cancel", "cli/acp/permission-cancel", "cli/acp/session-close"],
  },
  {
    defect: "second-stop-reason",
    fails: ["cli/acp/cancel", "cli/acp/permission-cancel", "cli/acp/session-close"],
  },
  {
    defect: "ignores-cancel",
    fails: ["cli/acp/cancel", "cli/acp/permission-cancel", "cli/acp/session-close"],
  },
  { defect: "unknown-method-unanswered", fails: ["cli/acp/unknown-method"] },
  { defect: "crashes-on-malformed-json", fails: ["cli/acp/malformed-json"] },
  { defect: "lingers-after-stdin-close", fails: ["cli/acp/stdin-closed"] },
  { defect: "tool-update-unknown-id", fails: ["cli/acp/tool-call"] },
  { defect: "edit-as-text", fails: ["cli/acp/tool-call-diff"] },
  { defect: "runs-rejected-tool", fails: ["cli/acp/permission-reject", "cli/acp/permission-cancel"] },
  { defect: "allowed-tool-not-run", fails: ["cli/acp/permission-allow"] },
  { defect: "ignores-session-cwd", fails: ["cli/acp/session-cwd"] },
  { defect: "silent-model-error", fails: ["cli/acp/model-error"] },
  { defect: "replay-after-load-response", fails: ["cli/acp/session-load"] },
  { defect: "calls-unadvertised-fs", fails: ["cli/acp/client-capabilities"] },
  { defect: "fs-relative-path", fails: ["cli/acp/client-fs"] },
  { defect: "cancelled-permission-ends-turn", fails: ["cli/acp/permission-cancel"] },
  { defect: "leaks-terminal", fails: ["cli/acp/client-terminal"] },
  { defect: "terminal-relative-cwd", fails: ["cli/acp/client-terminal"] },
  { defect: "replays-on-resume", fails: ["cli/acp/session-resume"] },
  { defect: "resume-forgets", fails: ["cli/acp/session-resume"] },
  { defect: "close-leaves-turn", fails: ["cli/acp/session-close"] },
];

/**
 * Where Deno keeps its module cache: the sandbox's HOME is fresh, and Deno would otherwise compile the agent
 * again on every run.
 */
function denoDir(): Record<string, string> {
  const explicit = Deno.env.get("DENO_DIR");
  if (explicit) return { DENO_DIR: explicit };
  const home = Deno.env.get("HOME");
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? (home ? `${home}/.cache` : undefined);
  return cache === undefined ? {} : { DENO_DIR: `${cache}/deno` };
}

function entryOf(defect: FakeAcpDefect | null): CliHostEntry {
  const name = defect ? `fake-acp:${defect}` : "fake-acp";
  const runner = cliRunner({
    name,
    binary: "conformance",
    dialect: "claude",
    capabilities: NO_CAPABILITIES,
    streamShape: { init: "none", terminal: "eof" },
    detect: () => Promise.resolve(selfCommand("fake-acp-agent").binary),
    envAllow: [],
    missingPath: (path) => `The fake ACP agent has no golden path "${path}": it speaks only ACP`,
    paths: {},
    acp: {
      command: () => selfCommand("fake-acp-agent"),
      env: { ...denoDir(), ...(defect ? { [FAKE_ACP_DEFECT_ENV]: defect } : {}) },
      modelFree: true,
    },
  });
  return {
    id: name,
    kind: "cli",
    summary: defect
      ? `fake ACP agent, broken: ${defect}`
      : "built-in scripted ACP agent: passes every ACP test",
    testOnly: true,
    ...(defect ? { variantOf: "fake-acp" } : {}),
    capabilities: [],
    runner,
  };
}

/** The healthy fake ACP agent. */
export const FAKE_ACP_HOST: CliHostEntry = entryOf(null);

/** Its broken variants, in table order. */
export const FAKE_ACP_VARIANT_HOSTS: readonly CliHostEntry[] = FAKE_ACP_VARIANTS.map((v) =>
  entryOf(v.defect)
);
