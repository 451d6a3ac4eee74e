/**
 * `continue` (`cn`, @continuedev/cli 1.5.47). `cn -p` has no event stream: it prints the final reply once the
 * run is over (plain text, or one `{"response","status"}` object with `--format json`) and reports a failure
 * only as `{"status":"error","message"}` on stderr with exit 1. Pitfalls handled here: the auto-updater would
 * `npm i -g` a newer release mid-run (`CONTINUE_CLI_AUTO_UPDATED=1` stops it), telemetry is off, stdin is
 * never read (`FORCE_NO_TTY`); headless tools that ask are allowed with `--auto`; `--format json` prints the
 * reply as it is when it is itself valid JSON. The mock model is an `openai` model with `apiBase` in
 * `~/.continue/config.yaml`, which `cn` reads when no `--config` is given.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost } from "./_real_host.ts";

function print(request: InvocationRequest, extra: string[]): string[] {
  return ["-p", "--auto", ...extra, request.prompt];
}

/** The Continue CLI host (`continue` is a keyword, hence the name). */
export const continueCli = defineRealHost({
  id: "continue",
  binary: "cn",
  install: { package: "@continuedev/cli", version: "1.5.47" },
  acpUnsupported: "cn has no ACP mode (its subcommands are checks, ls, review and serve)",
  envPrefixes: ["CONTINUE_*"],
  summary: "Continue CLI (cn -p; the reply printed at the end, EOF-terminated)",
  dialect: "continue",
  capabilities: capabilities("permissionSkip"),
  capabilityMarkers: { permissionSkip: ["--auto"] },
  streamShape: { init: "synthetic", terminal: "eof" },
  env: {
    CONTINUE_CLI_AUTO_UPDATED: "1",
    CONTINUE_METRICS_ENABLED: "0",
    FORCE_NO_TTY: "true",
  },
  envAllow: ["CONTINUE_API_KEY", "CONTINUE_GLOBAL_DIR"],
  paths: {
    "streaming": (request) => ({ args: print(request, []) }),
    "blocking-json": (request) => ({ args: print(request, ["--format", "json"]) }),
    "resume": (request) => ({ args: print(request, ["--resume"]) }),
    "detached": (request) => ({ args: print(request, []) }),
    "version-check": () => ({ args: ["--version"] }),
  },
  toolBehavior: {
    tools: {
      read: { name: "Read", args: ({ path }) => ({ filepath: path }) },
      write: { name: "Write", args: ({ path, content }) => ({ filepath: path, content }) },
      shell: { name: "Bash", args: ({ command }) => ({ command }) },
    },
    permissionSkipArgs: ["--auto"],
  },
  mockModel: ({ url }) => ({
    env: {},
    files: {
      ".continue/config.yaml": [
        "name: conformance mock",
        "version: 1.0.0",
        "schema: v1",
        "models:",
        "  - name: mock-model",
        "    provider: openai",
        "    model: mock-model",
        `    apiBase: ${url}/v1`,
        "    apiKey: sk-mock-conformance",
        "    roles: [chat, edit, apply]",
        "",
      ].join("\n"),
    },
  }),
});
