/**
 * `crush` (Charm Crush, `crush run`, @charmland/crush 0.96.1). Written from its public sources, not run here:
 * the npm package ships no binary; its postinstall (`install.js`, and `run-crush.js` on first use, both through
 * `lib.js`) downloads `crush_0.96.1_Linux_x86_64.tar.gz` from github.com releases into the package's `bin/`,
 * so the pin's entry is that downloaded binary (no Node wrapper between the harness and the process), and
 * `hosts:install` reports crush as not installed where github.com is unreachable.
 *
 * What the sources say (charmbracelet/crush `internal/cmd/run.go` at 01f8b81, `internal/cmd/root.go` at
 * 01dbe76, the package's README at 0.96.1): `crush run [prompt...]` prints the assistant's reply on stdout as
 * plain text (no JSON output flag: its flags are `-q/--quiet`, `-v/--verbose`, `-m/--model` taking `model` or
 * `provider/model`, `--small-model`, `-s/--session <id>`, `-C/--continue`); `-c/--cwd` is a persistent root
 * flag; every `run` message is sent with auto-approval (`AutoApprove: true`), while `-y/--yolo` is a local flag
 * of the root command there (so it is not passed to `run`); a failed run returns an error, which fang prints on
 * stderr, and the process exits 1. The mock model is an `openai-compat` custom provider (`base_url`, `api_key`,
 * `models`) in the temporary HOME's `$XDG_CONFIG_HOME/crush/crush.json`, the global config `internal/config`
 * reads (load.go at 008721e); the 0.96.1 README prefers a `crushrc` script now and keeps that JSON "still
 * supported"; provider auto-update (catwalk.charm.sh) and metrics are off by the README's variables.
 * The source index holds many commits of the repository (and of forks); that the ones read are the v0.96.1 tag is
 * not confirmed, and none of this has been run. Its stream has no events, so the plain-text dialect of `continue` reads it: every stdout line is reply text,
 * the init is synthetic, the terminal comes at EOF from the exit code and the last stderr line.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

const PACKAGE = "@charmland/crush";

function run(request: InvocationRequest, extra: string[]): string[] {
  return [
    "run",
    "--quiet",
    ...extra,
    ...opt("--model", request.model),
    ...opt("--cwd", request.workingDir),
    request.prompt,
  ];
}

/** The crush host. */
export const crush = defineRealHost({
  id: "crush",
  binary: "crush",
  install: {
    package: PACKAGE,
    version: "0.96.1",
    entry: `node_modules/${PACKAGE}/bin/crush`,
    binaryDownloadFrom: "github.com",
  },
  acpUnsupported: "crush has no ACP mode in its --help nor in the ACP agents list, and no adapter on npm",
  envPrefixes: ["CRUSH_*"],
  summary:
    "Charm Crush (crush run; the reply printed as plain text, EOF-terminated; from its source, not run here)",
  dialect: "continue",
  capabilities: capabilities(),
  streamShape: { init: "synthetic", terminal: "eof" },
  env: {
    CRUSH_DISABLE_METRICS: "1",
    DO_NOT_TRACK: "1",
    CRUSH_DISABLE_PROVIDER_AUTO_UPDATE: "1",
  },
  envAllow: ["CRUSH_GLOBAL_CONFIG", "CRUSH_GLOBAL_DATA"],
  paths: {
    "streaming": (request) => ({ args: run(request, []) }),
    "resume": (request) => ({ args: run(request, ["--continue"]) }),
    "detached": (request) => ({ args: run(request, []) }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json": "crush run prints the reply as plain text; it has no JSON output flag",
  },
  mockModel: ({ url }) => ({
    env: {},
    files: {
      ".config/crush/crush.json": JSON.stringify({
        providers: {
          mock: {
            name: "conformance mock model",
            type: "openai-compat",
            base_url: `${url}/v1`,
            api_key: "sk-mock-conformance",
            models: [{
              id: "mock-model",
              name: "mock model",
              context_window: 128000,
              default_max_tokens: 1024,
            }],
          },
        },
      }) + "\n",
    },
    model: "mock/mock-model",
  }),
});
